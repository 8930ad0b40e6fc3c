"""The one base class of errors a user can fix (bad input, missing files): the CLI prints them as one line."""


class UserError(ValueError):
    """A problem with the user's input or files, worded to name the file, record and field; not a bug."""
