// A colored triangle from SV_VertexID, with semantic strings on the stage's
// inputs and outputs (OpDecorateString UserSemantic).
struct VSOut {
  float4 pos : SV_Position;
  float4 color : COLOR0;
};
VSOut main(uint id : SV_VertexID) {
  const float2 p[3] = {float2(-0.8, -0.8), float2(0.9, -0.6), float2(-0.3, 0.9)};
  const float4 c[3] = {float4(1, 0, 0, 1), float4(0, 1, 0, 1), float4(0, 0, 1, 1)};
  VSOut o;
  o.pos = float4(p[id], 0, 1);
  o.color = c[id];
  return o;
}
