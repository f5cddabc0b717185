"""``python -m croupier.cli``: the same as the ``croupier`` command."""

from croupier.cli import main

if __name__ == "__main__":
    main()
