"""The browser client: static HTML, CSS and JavaScript served by the server."""
