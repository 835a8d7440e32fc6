"""The dispute report: an HTML page with the game's timeline and, for every contested or close call,
the frames just before, at and after the touch with outlines and hands drawn."""

from referee.report.collect import ReportCollector

__all__ = ["ReportCollector"]
