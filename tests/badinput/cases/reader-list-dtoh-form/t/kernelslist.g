kernel-1.traceg
MemcpyDtoH,0x100
