"""Thin discord.py cogs: they validate, call the engine or the storage layer, render and reply."""
