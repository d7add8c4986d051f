kernel-1-ctx_0xZZ.traceg
