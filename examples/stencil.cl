// 2-D 5-point stencil on a row-major grid; the border is copied unchanged.
__kernel void stencil5(__global const float *src, __global float *dst, int width, int height)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int i = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        dst[i] = src[i];
        return;
    }
    dst[i] = 0.5f * src[i] + 0.125f * (src[i - 1] + src[i + 1] + src[i - width] + src[i + width]);
}
