"""The rules of Spit: cards, events, and the engine that turns observations into rulings.

Knows nothing about pixels.
"""
