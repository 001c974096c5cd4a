// HLSL through glslang with SPV_GOOGLE_hlsl_functionality1: the semantic as
// OpDecorateString UserSemantic (VK_GOOGLE_decorate_string), the append
// buffer's counter tied to it by OpDecorateId CounterBuffer
// (VK_GOOGLE_hlsl_functionality1). glslang puts the counter at binding 0.
struct Params { uint count; };
[[vk::push_constant]] ConstantBuffer<Params> params;
[[vk::binding(1)]] RWStructuredBuffer<uint> squares;
[[vk::binding(2)]] AppendStructuredBuffer<uint> odd;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
  if (id.x >= params.count) return;
  squares[id.x] = id.x * id.x;
  if (id.x & 1) odd.Append(id.x);
}
