// Tessera's shader IR: scalarized SSA over lanes.
//
// One register holds one 32-bit scalar per lane (a lane is one invocation).
// Vectors, matrices and structs are split into scalar registers by the
// front end (src/spirv). A Program is a list of blocks in structured order
// (every block comes after the blocks that branch to it, loop back edges
// excepted, and a construct's merge block after the whole construct); see
// README.md for why that order is what makes masked execution reconverge.
// Plain data: a Program can be copied, cached, or handed to a later JIT.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "shader/compiled.h"

namespace tessera::shader {

enum class Op : uint16_t {
#define OP(name, arity, expr) k##name,
#include "shader/alu_ops.inc"
#undef OP
	kAluCount,
	// Memory: region = Inst::region, byte address = register a + Inst::imm,
	// descriptor array element = register d (for arrayed regions).
	kLoad = kAluCount,  // dst = memory[a + imm]
	kStore,             // memory[a + imm] = b
	kArrayLength,       // dst = (bound size of region - imm) / b   (b is a literal stride)
	// 8- and 16-bit buffer memory (explicit layouts only): loads zero-extend,
	// stores write the low bits of b.
	kLoad16,
	kLoad8,
	kStore16,
	kStore8,
	// Atomics: dst = old value; b = operand; c = comparator (compare-exchange).
	// Inst::wide: on 64-bit integers (the high words in dst_hi, b_hi, c_hi).
	kAtomicLoad,
	kAtomicStore,
	kAtomicExchange,
	kAtomicCompareExchange,
	kAtomicIAdd,
	kAtomicISub,
	kAtomicSMin,
	kAtomicUMin,
	kAtomicSMax,
	kAtomicUMax,
	kAtomicAnd,
	kAtomicOr,
	kAtomicXor,
	// Floating-point add (VK_EXT_shader_atomic_float), minimum and maximum
	// (VK_EXT_shader_atomic_float2, as C's fmin and fmax: a NaN operand is
	// missing data): b holds float bits, or with Inst::wide a double's low
	// and high words (b, b_hi).
	kAtomicFAdd,
	kAtomicFMin,
	kAtomicFMax,
	// Subgroups: kSubgroupSize consecutive lanes of a workgroup's lane group;
	// only active lanes take part.
	kSubgroupElect,           // dst = this is the lowest active lane of its subgroup
	kSubgroupBallot,          // dst = bit k set when lane k of the subgroup is active and a != 0
	kSubgroupBroadcastFirst,  // dst = a of the lowest active lane
	kSubgroupShuffle,         // dst = a of subgroup lane b (own value when b is not an active lane)
	// dst = a combined over the subgroup's active lanes by the ALU op in
	// Inst::region, b holding its identity; Inst::imm: 0 reduce, 1 inclusive
	// scan, 2 exclusive scan, 3 | cluster size << 8 clustered reduce.
	kSubgroupReduce,
	// The same on 64-bit values (Inst::wide): a, b = the value's low and high
	// words, c, d = the identity's; the result in dst (low) and dst_hi
	// (high). Inst::region is the combining op's Lo entry, region + 1 its Hi.
	kSubgroupReduce64,
	// Fragment derivatives over 2x2 quads (lane 4q + 2dy + dx is pixel (dx, dy)
	// of quad q): dst = difference of a along x or y, per row/column (fine) or
	// once per quad from its upper-left pixel (coarse). Float bits.
	kDerivativeFineX,
	kDerivativeFineY,
	kDerivativeCoarseX,
	kDerivativeCoarseY,
	// Images, samplers and texel buffers (image_ops.cpp). An image
	// instruction is a run: kImageArg names register a as operand slot imm
	// (ImageArg), kImage runs Program::image_ops[imm] on the slots and leaves
	// up to four results (component 0 also in dst), kImageResult reads result
	// imm into dst. The kImageResult instructions follow their kImage, and
	// nothing between a kImageArg and its kImage writes registers.
	kImageArg,
	kImage,
	kImageResult,
	// VK_KHR_shader_clock: dst (low word) and dst_hi (high word; Inst::wide)
	// = nanoseconds of the host's monotonic clock, one reading for all the
	// lanes; it serves both subgroup and device scope, being one clock for
	// every thread.
	kReadClock,
	kCount,
};

// The name of an op, for dumps and messages.
const char* OpName(Op op);
// How many register operands an op reads (a, b, c, d in that order).
uint32_t OpArity(Op op);

inline bool IsAtomic(Op op) { return op >= Op::kAtomicLoad && op <= Op::kAtomicFMax; }
inline bool IsMemory(Op op) { return op >= Op::kLoad && op <= Op::kAtomicFMax; }
inline bool IsSubgroup(Op op) { return op >= Op::kSubgroupElect && op <= Op::kSubgroupReduce64; }
inline bool IsDerivative(Op op) { return op >= Op::kDerivativeFineX && op <= Op::kDerivativeCoarseY; }
inline bool IsImage(Op op) { return op >= Op::kImageArg && op <= Op::kImageResult; }

// Lanes per subgroup (what the device reports as subgroupSize).
constexpr uint32_t kSubgroupSize = 32;

// The derivative group execution modes of a compute program (Program).
enum class DerivativeGroup : uint8_t { kNone, kLinear, kQuads };

// Fragment shader interlock (SPV_EXT_fragment_shader_interlock): the
// critical sections (OpBegin/OpEndInvocationInterlockEXT) of invocations
// that cover the same pixel, or the same sample, run one at a time in
// primitive order. Ordered and unordered modes are the same here.
enum class Interlock : uint8_t { kNone, kPixel, kSample };

// One decoded instruction. Unused operands name register 0 (always zero).
struct Inst {
	Op op = Op::kCopy;
	uint16_t region = 0;  // memory ops: index into Program::regions
	uint32_t dst = 0;
	uint32_t a = 0, b = 0, c = 0, d = 0;
	uint32_t imm = 0;  // memory ops: constant byte offset
	// 64-bit atomics (wide): the high words of the old value (dst_hi), the
	// operand (b_hi) and the comparator (c_hi); dst, b and c hold the low words.
	bool wide = false;
	uint32_t dst_hi = 0, b_hi = 0, c_hi = 0;
};

enum class RegionKind : uint8_t {
	kStorageBuffer,  // a bound buffer, read-write, bounds-checked
	kUniformBuffer,  // a bound buffer, read-only, bounds-checked
	kPushConstant,   // the push constant bytes
	kWorkgroup,      // shared by the lanes of a workgroup: [base, base + size) of workgroup memory
	kPrivate,        // one copy per lane (Function and Private variables): words [base, base + size / 4)
	kPhysical,       // device addresses (PhysicalStorageBuffer): the 64-bit address is (d << 32 | a) + imm
};

struct Region {
	RegionKind kind = RegionKind::kPrivate;
	uint32_t binding = 0;  // buffers: index into Program::bindings
	uint32_t base = 0;     // workgroup: byte offset; private: word offset
	uint32_t size = 0;     // workgroup, private: bytes (buffers: the bound size, known at run time)
	// Buffers: an array of descriptors indexed at run time. Memory ops then
	// take the element index in register d; the elements are bindings
	// [binding, binding + descriptor_count).
	uint32_t descriptor_count = 1;
};

// A runtime-sized descriptor array (OpTypeRuntimeArray of descriptors) as
// the translator leaves it: one slot whose array_element is this, and
// operations and regions whose descriptor count is this. Pipeline creation
// replaces it by the pipeline layout's descriptorCount of slots
// (spirv::LinkRuntimeDescriptorArrays); only linked programs run.
constexpr uint32_t kRuntimeDescriptorArray = UINT32_MAX;

// A buffer the program reads or writes: one descriptor.
struct BindingSlot {
	uint32_t set = 0;
	uint32_t binding = 0;
	uint32_t array_element = 0;
	bool storage = true;  // storage buffer (else uniform buffer)
};

// An image, sampler or texel buffer the program reads or writes: one
// descriptor. An array of N descriptors takes N consecutive slots.
enum class ImageDescriptorKind : uint8_t {
	kSampledImage,
	kStorageImage,
	kCombinedImageSampler,
	kSampler,
	kUniformTexelBuffer,
	kStorageTexelBuffer,
};
struct ImageBindingSlot {
	uint32_t set = 0;
	uint32_t binding = 0;
	uint32_t array_element = 0;
	ImageDescriptorKind kind = ImageDescriptorKind::kSampledImage;
};

// Operand slots of an image instruction (kImageArg's imm).
enum ImageArg : uint32_t {
	kArgCoord = 0,  // 4: SPIR-V coordinate order, layer last
	kArgDref = 4,
	kArgLod = 5,  // Lod (float; int for fetches) or Bias
	kArgMinLod = 6,
	kArgDdx = 7,      // 3
	kArgDdy = 10,     // 3
	kArgOffset = 13,  // 3
	kArgSample = 16,
	kArgTexel = 17,       // 4: the value OpImageWrite stores
	kArgImageIndex = 21,  // element of a descriptor array (dynamic index)
	kArgSamplerIndex = 22,
	kArgValue = 23,       // atomics: operand
	kArgComparator = 24,  // atomics: comparator
	kImageArgCount = 25,
};

enum class ImageOpKind : uint8_t {
	kRead,       // OpImageRead (storage images, storage texel buffers)
	kWrite,      // OpImageWrite
	kFetch,      // OpImageFetch (sampled images, uniform texel buffers)
	kSample,     // OpImageSample*
	kGather,     // OpImageGather, OpImageDrefGather
	kQuerySize,  // OpImageQuerySize(Lod)
	kQueryLevels,
	kQuerySamples,
	kQueryLod,
	kAtomic,  // an atomic on an OpImageTexelPointer
	// The residency code of an OpImageSparse* lookup (ImageOperation::lookup,
	// with the same operands): 0 where every texel it reads is resident, 1
	// where one is not (OpImageSparseTexelsResident: code == 0).
	kResidency,
};

// One image instruction (Program::image_ops).
struct ImageOperation {
	static constexpr uint32_t kNone = UINT32_MAX;
	ImageOpKind kind = ImageOpKind::kRead;
	uint32_t image = 0;        // first slot in Program::image_bindings
	uint32_t image_count = 1;  // > 1: a descriptor array indexed by kArgImageIndex
	uint32_t sampler = kNone;  // a separate sampler (OpSampledImage): its first slot
	uint32_t sampler_count = 1;
	// Operands present (the others read as absent).
	bool has_lod = false, has_bias = false, has_grad = false, has_offset = false, has_min_lod = false;
	bool has_dref = false, has_sample = false;
	bool implicit_lod = false;  // derivatives from the lane quads (lane 4q + 2dy + dx)
	bool has_const_offsets = false;
	uint8_t component = 0;                      // gathers
	ImageOpKind lookup = ImageOpKind::kSample;  // kResidency: the lookup whose texels are checked
	int32_t const_offsets[4][2] = {};
	Op atomic = Op::kAtomicLoad;  // kAtomic
};

enum class Builtin : uint8_t {
	kLocalInvocationId,
	kGlobalInvocationId,
	kWorkgroupId,
	kNumWorkgroups,
	kLocalInvocationIndex,
	kSubgroupLocalInvocationId,
	kSubgroupId,
};

// A register filled per lane before the program runs.
struct BuiltinInput {
	uint32_t reg = 0;
	Builtin builtin = Builtin::kLocalInvocationId;
	uint32_t component = 0;
};

struct Constant {
	uint32_t reg = 0;
	uint32_t bits = 0;
};

// A control barrier: in blocks[block], just before insts[inst] (inst may be
// the block's end: after its instructions, before its terminator).
struct BarrierPoint {
	uint32_t block = 0;
	uint32_t inst = 0;
};

// Phi operands travel along edges: a lane taking an edge copies src into the
// phi's shadow register; the target block starts by copying shadows into the
// phis. The two steps keep the copies parallel (a loop that swaps two phis).
struct PhiCopy {
	uint32_t dst = 0;
	uint32_t src = 0;
};

struct Edge {
	uint32_t block = 0;
	uint32_t copy_begin = 0, copy_count = 0;  // into Program::copies
};

enum class TerminatorKind : uint8_t {
	kBranch,       // edges[0]
	kConditional,  // selector != 0 ? edges[0] : edges[1]
	kSwitch,       // edges[0] is the default; edges[1 + k] is taken when selector == case_values[case_begin + k]
	kExit,         // the lane is done (return, OpKill, OpTerminateInvocation, OpUnreachable)
};

struct Terminator {
	TerminatorKind kind = TerminatorKind::kExit;
	uint32_t selector = 0;
	uint32_t edge_begin = 0, edge_count = 0;
	uint32_t case_begin = 0;
};

struct Block {
	uint32_t inst_begin = 0, inst_count = 0;
	Terminator terminator;
	bool has_barrier = false;
};

enum class Stage : uint8_t { kCompute, kVertex, kFragment, kGeometry, kTessControl, kTessEval };

// Built-ins of the vertex and fragment interfaces (SPIR-V BuiltIn values that
// are stage inputs or outputs; the compute ones are BuiltinInput above).
enum class InterfaceBuiltin : uint8_t {
	kNone,  // a user variable (Location, Component)
	// Vertex inputs.
	kVertexIndex,
	kInstanceIndex,
	kBaseVertex,
	kBaseInstance,
	kDrawIndex,
	// Vertex outputs (and fragment inputs where SPIR-V allows).
	kPosition,  // index = component 0..3
	kPointSize,
	kClipDistance,  // index = array element
	kCullDistance,  // index = array element
	// Fragment inputs.
	kFragCoord,  // index = component 0..3 (x, y at the sample or pixel center, z_f, 1/w)
	kFrontFacing,
	kPointCoord,  // index = component 0..1
	kSampleId,
	kSamplePosition,  // index = component 0..1
	kSampleMaskIn,    // index = array element (one word for up to 32 samples)
	kHelperInvocation,
	kPrimitiveId,
	kLayer,
	kViewIndex,
	// Fragment outputs.
	kFragDepth,
	kSampleMask,  // index = array element
	kFragStencilRef,
	// Fragment input, only when the program uses InterpolateAtSample: the
	// pipeline's rasterizationSamples (1 or 4; 0 reads as 1).
	kSampleCount,
	// Vertex output (shaderOutputViewportIndex) and fragment input: the
	// viewport a primitive goes through.
	kViewportIndex,
	// Geometry and tessellation control input: the invocation's number
	// within its primitive or patch.
	kInvocationId,
	// Tessellation: the patch's levels (index = array element; outputs of
	// the control stage, inputs of the evaluation stage), the evaluation
	// stage's domain point (index = component u, v, w), and the vertices
	// of the input patch.
	kTessLevelOuter,
	kTessLevelInner,
	kTessCoord,
	kPatchVertices,
	// Fragment input (VK_KHR_fragment_shader_barycentric): BaryCoordKHR and
	// BaryCoordNoPerspKHR, the weights of the primitive's vertices (index =
	// component), interpolated perspective-correctly / linearly.
	kBaryCoord,
	kBaryCoordNoPersp,
};

enum class ScalarKind : uint8_t { kFloat, kSint, kUint, kBool };
// kPerVertex: a fragment input decorated PerVertexKHR, not interpolated:
// the value of the primitive's vertex InterfaceWord::vertex.
enum class InterfaceInterpolation : uint8_t { kSmooth, kNoPerspective, kFlat, kPerVertex };

// One 32-bit scalar of a vertex or fragment stage's interface. Stage inputs
// and outputs live in the lanes' private memory, word-major like every
// private variable: lane l's value of the word is private[word * stride + l]
// (Interpreter::StageWord). The caller writes the input words before a run
// and reads the output words after it. A 64-bit scalar is two words (low
// word at component c, high word at c + 1, as Location/Component count them).
struct InterfaceWord {
	uint32_t word = 0;  // private-memory word
	InterfaceBuiltin builtin = InterfaceBuiltin::kNone;
	uint8_t stream = 0;  // geometry outputs: the vertex stream (Stream decoration)
	bool patch = false;  // tessellation: a per-patch value (Patch, TessLevel*), not per vertex
	// 16: a 16-bit value (StorageInputOutput16), held widened as registers
	// hold it (a half as a float, an integer zero-extended; see
	// Translator::Canonical); 32 for all others.
	uint8_t width = 32;
	uint32_t location = 0;   // user variables: Location (+ array element / matrix column)
	uint32_t component = 0;  // user variables: Component 0..3
	uint32_t index = 0;      // built-ins: component or array element (see InterfaceBuiltin)
	ScalarKind kind = ScalarKind::kFloat;
	// Fragment inputs: how the value is interpolated.
	InterfaceInterpolation interpolation = InterfaceInterpolation::kSmooth;
	bool centroid = false;
	bool per_sample = false;  // the Sample decoration
	// Geometry and tessellation per-vertex inputs, tessellation control
	// per-vertex outputs and PerVertexKHR fragment inputs: the vertex of the
	// primitive or patch (the index into the per-vertex array); 0 for the
	// others.
	uint32_t vertex = 0;
};

// Tessellation (Vulkan "Tessellation"): the modes either stage declares
// (0 where it declares none), and the control stage's output patch. The
// control stage's outputs do not live in private memory: a patch's
// invocations share them, so they are workgroup memory, one record of
// patch_bytes per patch of the lane group (InterfaceWord::word counts words
// in the record). The caller puts each lane's patch number within the group
// in the private word patch_index_word, runs patches_per_group patches of
// output_vertices lanes at most, and reads the records after the run.
struct TessellationInfo {
	uint8_t domain = 0;   // 1 Triangles, 2 Quads, 3 Isolines
	uint8_t spacing = 0;  // 1 SpacingEqual, 2 SpacingFractionalEven, 3 SpacingFractionalOdd
	uint8_t order = 0;    // 1 VertexOrderCw, 2 VertexOrderCcw
	bool point_mode = false;
	uint32_t output_vertices = 0;  // OutputVertices
	uint32_t patch_bytes = 0;      // control stage: bytes of a patch's output record
	uint32_t patches_per_group = 1;
	uint32_t patch_index_word = 0;
};

// What a geometry program takes and makes (Vulkan "Geometry Shading").
// OpEmitVertex copies every output word (Program::outputs, in that order)
// into the next record of the emit region, followed by a word that is 1
// when the vertex begins a new strip of its stream (OpEndPrimitive came
// before it) and the vertex's stream (OpEmitStreamVertex's; 0 for
// OpEmitVertex); emitted_word counts the records. Vertices past max_vertices go to one
// spare record and are not counted. Each lane is one invocation for one
// input primitive.
enum class GeometryOutput : uint8_t { kPoints, kLineStrip, kTriangleStrip };
// maxGeometryShaderInvocations: a lane group of 128 lanes still holds one
// primitive's invocations.
constexpr uint32_t kMaxGeometryInvocations = 127;
struct GeometryInfo {
	uint32_t input_vertices = 0;  // 1, 2, 3, 4 (lines with adjacency) or 6 (triangles with adjacency)
	uint32_t invocations = 1;     // Invocations
	uint32_t max_vertices = 0;    // OutputVertices
	GeometryOutput output = GeometryOutput::kPoints;
	uint32_t emit_word = 0;     // first private word of the emit region
	uint32_t record_words = 0;  // words a record takes: the outputs, the strip flag, the stream
	uint32_t emitted_word = 0;  // private word: records emitted
};

// A number naming one Program object's contents for caches that outlive a
// run (the interpreter keeps a program's constants filled between runs):
// new on every construction, copy and assignment, never reused, so a
// program made later at the same address is not taken for an earlier one.
struct ProgramSerial {
	uint64_t value = Next();
	ProgramSerial() = default;
	ProgramSerial(const ProgramSerial&) : value(Next()) {}
	ProgramSerial& operator=(const ProgramSerial&) {
		value = Next();
		return *this;
	}
	static uint64_t Next() {
		static std::atomic<uint64_t> next{1};
		return next.fetch_add(1, std::memory_order_relaxed);
	}
};

// An output word that transform feedback captures (VK_EXT_transform_feedback):
// written at byte `offset` of each vertex's record in buffer `buffer`.
struct XfbWord {
	uint32_t word = 0;  // private-memory word, among Program::outputs
	uint32_t buffer = 0;
	uint32_t offset = 0;
	uint32_t stream = 0;  // the output's vertex stream (geometry stage)
	// A 16-bit output takes 2 bytes (a half converted from the float the
	// word holds); others 4.
	uint8_t bytes = 4;
	bool half = false;
};

// Vertex streams a geometry program may emit to (maxTransformFeedbackStreams).
constexpr uint32_t kMaxVertexStreams = 4;

// Transform feedback buffers a program may capture to (XfbBuffer 0..3).
constexpr uint32_t kMaxXfbBuffers = 4;

struct Program {
	Stage stage = Stage::kCompute;
	// Vertex and fragment stages: the interface words (see InterfaceWord).
	std::vector<InterfaceWord> inputs;
	std::vector<InterfaceWord> outputs;
	// The Xfb execution mode: the output words transform feedback captures,
	// and each buffer's XfbStride (bytes a vertex takes; 0 where unused).
	bool xfb_mode = false;
	std::vector<XfbWord> xfb_words;
	uint32_t xfb_strides[kMaxXfbBuffers] = {};
	// Fragment stage. discard_word: a private word the program sets to 1 in a
	// lane that executes OpKill (the lane also stops) or
	// OpDemoteToHelperInvocation (it goes on as a helper); the caller zeroes
	// it with the inputs. kNoWord when the program never discards.
	static constexpr uint32_t kNoWord = UINT32_MAX;
	uint32_t discard_word = kNoWord;
	bool writes_depth = false;          // FragDepth is an output
	bool early_fragment_tests = false;  // EarlyFragmentTests execution mode
	bool post_depth_coverage = false;   // PostDepthCoverage: SampleMaskIn after the early tests
	bool depth_replacing = false;       // DepthReplacing execution mode
	bool uses_derivatives = false;      // derivatives or implicit-LOD sampling: lanes are 2x2 quads
	bool sample_shading = false;        // SampleId/SamplePosition/Sample input in the interface: runs per sample
	bool origin_upper_left = true;      // OriginUpperLeft (Vulkan requires it)
	bool pixel_center_integer = false;  // PixelCenterInteger
	GeometryInfo geometry;              // geometry stage
	TessellationInfo tessellation;      // tessellation stages
	// The Pixel/SampleInterlock*EXT execution modes.
	Interlock interlock = Interlock::kNone;

	std::vector<Inst> insts;
	std::vector<Block> blocks;  // blocks[0] is the entry
	std::vector<Edge> edges;
	std::vector<PhiCopy> copies;
	std::vector<uint32_t> case_values;
	std::vector<Region> regions;
	std::vector<BindingSlot> bindings;
	std::vector<ImageBindingSlot> image_bindings;
	std::vector<ImageOperation> image_ops;
	std::vector<BuiltinInput> builtins;
	std::vector<Constant> constants;  // includes register 0 = 0
	uint32_t register_count = 1;
	uint32_t workgroup_size[3] = {1, 1, 1};
	uint32_t workgroup_memory_size = 0;  // bytes
	uint32_t private_words = 0;          // per lane
	uint32_t push_constant_size = 0;     // bytes the program may read
	bool uses_barriers = false;
	bool uses_subgroups = false;  // lanes of a workgroup run together, like barriers
	// Compute derivative groups (VK_KHR_compute_shader_derivatives): how a
	// workgroup's invocations are laid out in lanes, so that each aligned
	// run of 4 lanes is a quad (derivatives, implicit LOD, quad operations).
	// kLinear: lanes in LocalInvocationIndex order, as without a mode.
	// kQuads: lane 4q + 2dy + dx is LocalInvocationId (2qx + dx, 2qy + dy, z),
	// quads q counted along x, then y, then z; subgroups are still runs of
	// kSubgroupSize lanes.
	DerivativeGroup derivative_group = DerivativeGroup::kNone;
	// Where each OpControlBarrier was, in program order. The interpreter
	// needs none (its lanes run each instruction together); the compiled
	// tier, which runs one vector of lanes after another, parks each vector
	// there until the workgroup's others arrive.
	std::vector<BarrierPoint> barriers;

	// Changes when the program is copied or assigned; a program must not be
	// changed in place once it has run as a stage (RunStage keeps its
	// constants).
	ProgramSerial serial;
	// The compiled tier's code and counters for this program (compiled.h);
	// a copy starts cold.
	JitSlot jit;

	uint32_t InvocationsPerWorkgroup() const { return workgroup_size[0] * workgroup_size[1] * workgroup_size[2]; }
	// A readable listing, one instruction a line (for tests and debugging).
	std::string Dump() const;
};

}  // namespace tessera::shader
