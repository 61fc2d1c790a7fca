"""
title: Weather
description: Current weather from wttr.in.
requirements: requests
"""
import requests
from pydantic import BaseModel, Field


class Tools:
    class Valves(BaseModel):
        UNITS: str = Field(default="m", description="m (metric) or u (US)")
        API_TOKEN: str = Field(default="", description="Token of your weather service")

    def __init__(self):
        self.valves = self.Valves()

    async def weather(self, city: str, __event_emitter__=None) -> str:
        """
        Get the current weather.
        :param city: City name, e.g. Oslo.
        """
        await __event_emitter__({"type": "status", "data": {"description": f"Asking about {city}", "done": False}})
        return requests.get(f"https://wttr.in/{city}?format=3&{self.valves.UNITS}", timeout=10).text
