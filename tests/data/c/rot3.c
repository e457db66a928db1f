/* 3-vectors rotated by a matrix held in a struct with one array member; a helper returns a struct of three
   floats by value (the ABI's { <2 x float>, float }); a local matrix struct accumulates the product. */
typedef struct { float x, y, z; } v3_t;
typedef struct { float m[9]; } m3_t;

static v3_t apply(const m3_t *R, v3_t v) {
  v3_t o;
  o.x = R->m[0] * v.x + R->m[1] * v.y + R->m[2] * v.z;
  o.y = R->m[3] * v.x + R->m[4] * v.y + R->m[5] * v.z;
  o.z = R->m[6] * v.x + R->m[7] * v.y + R->m[8] * v.z;
  return o;
}

float rot3(const v3_t *in, v3_t *out, m3_t *R, int n) {
  m3_t acc;
  for (int k = 0; k < 9; k++)
    acc.m[k] = 0.0f;
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    v3_t w = apply(R, in[i]);
    out[i] = w;
    acc.m[i % 9] += w.x - w.z;
    s += w.y;
  }
  *R = acc;
  return s;
}
