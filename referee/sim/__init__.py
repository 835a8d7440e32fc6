"""The game simulator: two simulated players playing whole games of Spit, as timed physical actions."""
