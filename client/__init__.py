"""The terminal client of Dungeon Twister Online: prompt_toolkit screens over the sans-IO protocol, with trio
networking running as a guest of prompt_toolkit's asyncio loop (guest.py). Entry point: app.main (dt-client)."""
