"""Views of models for people: differences, drawings, plots and text views."""
