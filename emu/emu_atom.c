/* emu_atom.c -- placeholder until implemented. */
typedef int emu_atom_placeholder_;
