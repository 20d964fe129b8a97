"""Pure rendering: engine views -> message specs (text, embed, component rows).

Nothing here talks to Discord; ``cogs.components`` turns a ``Screen`` into discord.py objects.
"""
