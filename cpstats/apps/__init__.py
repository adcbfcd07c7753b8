"""Apps: charts, the math report, the widgets and dashboard, and the command line.

Layer 6 of 6: may import every layer below; nothing imports the apps.
"""
