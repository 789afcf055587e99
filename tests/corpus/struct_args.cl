// Structs and unions passed by value.
typedef struct {
  int count;
  float scale;
} Params;

struct Particle {
  float4 pos;
  float4 vel;
  int id;
  char flag;
};

struct __attribute__((packed)) Packed {
  char tag;
  int value;
  short extra;
};

typedef union {
  int i;
  float f;
  uchar4 bytes;
} Bits;

typedef struct {
  Params p;
  double weight;
  short code[3];
} Nested;

kernel void scale_by_params(Params p, global float *data) {
  size_t gid = get_global_id(0);
  if (gid < (size_t)p.count)
    data[gid] *= p.scale;
}

kernel void move_particle(struct Particle pt, float dt, global float4 *out) {
  size_t gid = get_global_id(0);
  out[gid] = pt.pos + pt.vel * dt * (float)(gid + pt.id + pt.flag);
}

kernel void packed_sum(struct Packed pk, global int *out) {
  out[get_global_id(0)] = pk.tag + pk.value + pk.extra;
}

kernel void union_bits(Bits b, global uint *out) {
  size_t gid = get_global_id(0);
  out[gid] = as_uint(b.f) + b.bytes.x + (uint)gid;
}

kernel void nested_struct(Nested n, global double *out) {
  size_t gid = get_global_id(0);
  out[gid] = n.weight * n.p.scale + n.p.count + n.code[0] + n.code[1] + n.code[2];
}
