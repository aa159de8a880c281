"""Arboretum's words in the four languages (the rules' tests are tests/unit/test_arboretum_*)."""
