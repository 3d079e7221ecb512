#version 450
// Does nothing and binds nothing: appended after the VkFFT kernels a plan carries
// (device/fft/fft_staged.cc), so that a VkFFT that asks for more kernels than the plan holds
// reads this valid module, which fits any pipeline layout, rather than past the end; the loader
// then sees that VkFFT read beyond the plan's kernels and refuses them.
layout(local_size_x = 1) in;

void main() {}
