"""The `referee` command: a thin layer that parses arguments and calls the package."""
