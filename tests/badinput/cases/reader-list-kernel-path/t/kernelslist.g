kernels/kernel-1.traceg
