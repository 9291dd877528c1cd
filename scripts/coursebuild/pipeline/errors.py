"""The one exception type the experiment pipeline raises for problems a person can fix."""


class ExperimentError(Exception):
    """A clear, user-facing error: bad input, an unwritable folder, a failed metric gate.

    The message says what is wrong and how to fix it; the CLI prints it without a traceback
    and exits with ``exit_code`` (2 for bad input, 1 for a failed gate).
    """

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.exit_code = exit_code

    def __reduce__(self):  # keeps exit_code when a worker process sends the error back
        return (_rebuild, (type(self), str(self), self.exit_code))


class GateError(ExperimentError):
    """A result fell outside the range its experiment declared in ``GATES``."""

    def __init__(self, message: str):
        super().__init__(message, exit_code=1)


class ClaimError(GateError):
    """Training worked, but a sentence a page states (``CLAIMS``) no longer holds for the results.

    ``failures``: one line per claim (the message lists them all). The results stay cached.
    """

    HEAD = ("a page states what these results no longer show (the results are cached: fixing "
            "the sentence or the claim trains nothing):")

    @classmethod
    def of(cls, failures: list[str]) -> "ClaimError":
        return cls(cls.HEAD + "\n  " + "\n  ".join(failures))

    @property
    def failures(self) -> list[str]:
        return [line.strip() for line in str(self).splitlines()[1:]]


def _rebuild(cls, message: str, exit_code: int) -> ExperimentError:
    error = ExperimentError.__new__(cls)
    ExperimentError.__init__(error, message, exit_code)
    return error
