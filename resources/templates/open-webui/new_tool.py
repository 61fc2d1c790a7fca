"""
title: new_tool
author: you
description: Say what these tools are for. This frontmatter is Open WebUI's; the file runs there unchanged.
version: 0.1.0
requirements:
"""
from pydantic import BaseModel, Field


class Tools:
    class Valves(BaseModel):
        # Settings of the group: Settings → Tool groups, or `tooldesk tools config new_tool KEY=VALUE`.
        # A field named like a key, token, password or secret is kept in the keychain.
        SEPARATOR: str = Field(default=" ", description="What goes between the repeats")

    class UserValves(BaseModel):
        # Per-user settings (`tooldesk tools config new_tool --user KEY=VALUE`), as __user__["valves"].
        SHOUT: bool = Field(default=False, description="Upper-case the result")

    def __init__(self):
        self.valves = self.Valves()

    async def new_tool(self, text: str, repeat: int = 1, __user__: dict = {}, __event_emitter__=None) -> str:
        """
        Repeat a text.
        :param text: The text to work on.
        :param repeat: How many times to repeat it.
        """
        if __event_emitter__:
            await __event_emitter__({"type": "status", "data": {"description": "Repeating…", "done": False}})
        result = self.valves.SEPARATOR.join([text] * repeat)
        if "valves" in __user__ and __user__["valves"].SHOUT:
            result = result.upper()
        if __event_emitter__:
            await __event_emitter__({"type": "status", "data": {"description": "Done", "done": True}})
        return result
