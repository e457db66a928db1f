/* A struct of three floats copied whole and written field by field (LLVM's byte-offset GEPs). */
typedef struct { float x, y, z; } vec3_t;
float vec3(const vec3_t *a, vec3_t *out, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++) {
    vec3_t v = a[i];
    out[i].x = v.y * v.z; out[i].y = v.z * v.x; out[i].z = v.x * v.y;
    s += v.x + v.y + v.z;
  }
  return s;
}
