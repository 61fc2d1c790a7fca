"""Run one function of a Python tool module.

Usage: python run_tool.py SCRIPT FUNCTION [MARKER]   (arguments as a JSON object on stdin)
Writes one JSON envelope to fd 3 (where fd 3 is not inherited, as on Windows: to stdout after a
line holding MARKER, a per-run random string the tool cannot guess): {"success": true, "result": ..., "formattedText"?: ..., "warnings"?: [...]}
or {"success": false, "error": "...", "traceback": "..."}. Whatever the tool prints stays on
stdout/stderr and comes back as logs, so it cannot corrupt the envelope.
"""
# Only cheap modules at start-up: this runs once per tool call. asyncio and traceback are
# imported when a tool needs them.
import importlib.util
import json
import os
import sys


def open_channel():
    try:
        return os.fdopen(3, 'w', encoding='utf-8'), False
    except OSError:
        return sys.stdout, True


def encode(envelope, warnings):
    try:
        return json.dumps(envelope, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as error:
        warnings.append('The result is not JSON-serialisable (%s); it was converted with str().' % error)
        envelope['result'] = str(envelope.get('result'))
        return json.dumps(envelope, ensure_ascii=False)


def utf8_stdio():
    """UTF-8 on stdin, stdout and stderr, as PYTHONIOENCODING=utf-8 did (runs with -E)."""
    for stream, errors in ((sys.stdin, 'strict'), (sys.stdout, 'strict'), (sys.stderr, 'backslashreplace')):
        try:
            stream.reconfigure(encoding='utf-8', errors=errors)
        except (AttributeError, ValueError):
            pass


def main():
    utf8_stdio()
    script, function_name = sys.argv[1], sys.argv[2]
    marker = sys.argv[3] if len(sys.argv) > 3 else 'TOOLDESK-RESULT'
    channel, on_stdout = open_channel()
    folder = os.path.dirname(os.path.abspath(script))
    # Sibling imports work as when the module is run from its own folder; our own folder must
    # not shadow the user's modules.
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path = [folder] + [p for p in sys.path if os.path.abspath(p or '.') != here]
    warnings = []
    try:
        raw = sys.stdin.buffer.read().decode('utf-8')
        args = json.loads(raw) if raw.strip() else {}
        if not isinstance(args, dict):
            raise TypeError('arguments must be a JSON object, got %s' % type(args).__name__)
        name = os.path.splitext(os.path.basename(script))[0]
        spec = importlib.util.spec_from_file_location(name, script)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        function = getattr(module, function_name, None)
        if not callable(function):
            raise AttributeError('%s has no function %s()' % (os.path.basename(script), function_name))
        result = function(**args)
        if hasattr(result, '__await__'):
            import asyncio

            async def wait(awaitable):
                return await awaitable
            result = asyncio.run(wait(result))
        envelope = {'success': True, 'result': result}
        formatter = getattr(function, 'format', None)
        if callable(formatter):
            try:
                envelope['formattedText'] = str(formatter(result, args))
            except Exception as error:  # the raw result is still useful
                warnings.append('%s.format failed: %s: %s' % (function_name, type(error).__name__, error))
    except BaseException as error:  # SystemExit and KeyboardInterrupt included: report, never hang
        import traceback
        envelope = {'success': False, 'error': '%s: %s' % (type(error).__name__, error), 'traceback': traceback.format_exc()}
    sys.stdout.flush()
    sys.stderr.flush()
    text = encode(envelope, warnings)
    if warnings:
        envelope['warnings'] = warnings
        text = encode(envelope, [])
    if on_stdout:
        channel.write('\n' + marker + '\n')
    channel.write(text)
    channel.write('\n')
    channel.flush()


if __name__ == '__main__':
    main()
