"""The 13-card game's naturals (rulebook section 5): detectors for every N-* definition on arrays of
13-card hands, and their exact counts among all C(52, 13) hands by enumeration."""

from cpstats.thirteen.naturals.detect import NATURALS, detect_naturals, natural_mask, natural_names
from cpstats.thirteen.naturals.exact import TOTAL_HANDS, exact_naturals

__all__ = ["NATURALS", "TOTAL_HANDS", "detect_naturals", "exact_naturals", "natural_mask",
           "natural_names"]
