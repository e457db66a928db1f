"""Front ends: source languages compiled to loom's SCF (C, through clang)."""
