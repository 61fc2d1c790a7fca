"""Example script of the skill: prints its arguments. Run by run_skill_script, sandboxed."""
import sys

print("hello from __NAME__:", " ".join(sys.argv[1:]))
