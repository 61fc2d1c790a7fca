// The interpreter flags every Python tool runs with (issue 32 §8): no tool's import path may
// include a folder tools can write, or a module planted there (a `json.py` in the working folder)
// runs inside a later call with that call's secrets. `-E` ignores PYTHONPATH and every other
// PYTHON* variable, `-s` leaves out the user's site-packages (~/.local, writable with home
// writes on), and code read from stdin (three-layer) runs with `-I`, so the working folder ('')
// is not put first on sys.path either. A script's own folder, read-only in the sandbox, stays
// first, as for `python FILE`; our helper scripts set sys.path themselves (the tool's folder
// first) and their stdio to UTF-8, which PYTHONIOENCODING did before -E; -u and -B stand for
// PYTHONUNBUFFERED and PYTHONDONTWRITEBYTECODE.

/** `python FLAGS script.py`: a user's script run as `__main__`. */
export const PYTHON_SCRIPT_FLAGS: readonly string[] = ['-E', '-s'];
/** `python FLAGS resources/python/run_*.py …`: our helpers, which set sys.path themselves. */
export const PYTHON_HELPER_FLAGS: readonly string[] = ['-E', '-s', '-u', '-B'];
/** `python FLAGS -`: code on stdin, run from the (writable) working folder. */
export const PYTHON_STDIN_FLAGS: readonly string[] = ['-I', '-u'];
