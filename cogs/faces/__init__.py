"""Card faces as the bot's own application emojis.

``catalog`` names every face (pure), ``art`` draws them (Pillow), ``book`` uploads them once
and tells the renderers how to show each one (discord.py).
"""
