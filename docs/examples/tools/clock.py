"""
title: Clock
description: The time in a time zone.
version: 0.1.0
"""
from datetime import datetime
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field


class Tools:
    class Valves(BaseModel):
        DEFAULT_ZONE: str = Field(default="UTC", description="Time zone used when none is given")

    def __init__(self):
        self.valves = self.Valves()

    def current_time(self, zone: str = "") -> str:
        """
        The current time.
        :param zone: An IANA time zone such as Europe/Oslo (default: the valve).
        """
        return datetime.now(ZoneInfo(zone or self.valves.DEFAULT_ZONE)).strftime("%Y-%m-%d %H:%M %Z")
