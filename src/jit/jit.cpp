// Segments to machine code through LLVM.
//
// A segment (a run of ALU instructions in one block, see shader/compiled.h)
// becomes one function: a loop over the lanes whose body reads the run's
// live-in registers, calls the table's scalar function for each instruction
// (tessera_alu_<Name>, from the embedded bitcode of alu_lanes.cpp) and
// writes back the last value of each register the run writes, under the
// lane mask when there is one. Registers never written by the program
// (constants) become immediates. The loop is marked parallel (no lane reads
// another lane's registers), so LLVM's loop vectorizer turns it into
// vectors of the running CPU's width with no run-time alias checks, after
// the inliner has put the scalar functions in place.
#include "jit/jit.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/DebugUtils.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ObjectTransformLayer.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Linker/Linker.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <llvm/Support/raw_ostream.h>
#include "jit/code_cache.h"
#include "runtime/build_id.h"
#include "runtime/cpu_level.h"
#include "runtime/log.h"
#include "shader/program_serialize.h"

// The bitcode of alu_lanes.cpp (generated at build time).
extern const unsigned char kTesseraAluBitcode[];
extern const unsigned long kTesseraAluBitcodeSize;

namespace tessera::jit {
namespace {

using shader::CompiledProgram;
using shader::CompiledSegment;
using shader::Inst;
using shader::Op;
using shader::Program;

// Segments shorter than this stay with the interpreter's kernels: a call
// for one instruction saves nothing.
constexpr uint32_t kMinSegmentLength = 2;

const char* const kOpNames[] = {
#define OP(name, arity, expr) #name,
#include "shader/alu_ops.inc"
#undef OP
};

// The process's one JIT. Created on first use, never destroyed (compiled
// code may be freed by programs destroyed at exit); every use holds mutex
// (recursive: a failed compile frees its code while holding it).
struct Engine {
	std::recursive_mutex mutex;
	std::unique_ptr<llvm::orc::LLJIT> lljit;
	std::unique_ptr<llvm::TargetMachine> target;  // for the optimizer's cost model
	std::string cpu, features;
	// The vector width the optimizer is told to prefer: 512 where the CPU
	// has AVX-512, else LLVM's choice for the CPU. A program's 16 lanes
	// are one zmm register, and its lane-mask tests read them so; LLVM
	// tunes some AVX-512 CPUs (rocketlake and later) for 256-bit vectors,
	// and then a loop's two ymm stores of a lane array feed a zmm load,
	// which the store buffer cannot forward (a full-screen Mandelbrot spent
	// 40% of its time in four such loads).
	std::string prefer_vector_width;
	uint64_t next_id = 0;
	std::string error;  // why the JIT cannot be used; empty when it can
	// Compiled programs (code_cache.h): 64 MiB of machine code is a few
	// thousand programs.
	MemoryCache memory{64ull << 20};
	DiskCache disk = DiskCache::FromEnvironment();
	CacheStats stats;
};

Engine* CreateEngine() {
	auto* engine = new Engine;
	llvm::InitializeNativeTarget();
	llvm::InitializeNativeTargetAsmPrinter();
	auto fail = [&](llvm::Error error) {
		engine->error = llvm::toString(std::move(error));
		TESSERA_LOG(Warn, "jit: LLVM unavailable, programs stay interpreted: %s", engine->error.c_str());
		return engine;
	};
	auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
	if (!builder) return fail(builder.takeError());
	builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Default);
	// TESSERA_CPU_LEVEL below the CPU's: code for a CPU of that level, so
	// that the tests of both tiers run each level's code (the cache key has
	// the CPU name and features: no other level's code is reused).
	if (runtime::CpuLevelLowered()) {
		builder->setCPU(runtime::HostCpuLevel() == runtime::CpuLevel::kV3 ? "x86-64-v3" : "x86-64");
		builder->getFeatures() = llvm::SubtargetFeatures();
	}
	// What LLJIT sets for JITLink on x86-64 ELF; set here too, because
	// `target` also makes the object files LLJIT links.
	builder->setRelocationModel(llvm::Reloc::PIC_);
	builder->setCodeModel(llvm::CodeModel::Small);
	auto target = builder->createTargetMachine();
	if (!target) return fail(target.takeError());
	engine->target = std::move(*target);
	engine->cpu = engine->target->getTargetCPU().str();
	engine->features = engine->target->getTargetFeatureString().str();
	if (engine->target->getMCSubtargetInfo()->checkFeatures("+avx512f,+evex512")) engine->prefer_vector_width = "512";
	auto lljit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*builder)).create();
	if (!lljit) return fail(lljit.takeError());
	engine->lljit = std::move(*lljit);
	// TESSERA_JIT_DUMP=<folder>: the object files too (objdump -d them).
	if (const char* dump = std::getenv("TESSERA_JIT_DUMP"); dump && *dump)
		engine->lljit->getObjTransformLayer().setTransform(llvm::orc::DumpObjects(dump, "object"));
	// Each program's code is a JITDylib of its own, whose link order has
	// the process's symbols. The scalar functions call libm (sinf, frexpf,
	// ...): resolved in this process, and in libm itself where the process
	// reached it only through the driver (a loader that opened the driver
	// RTLD_LOCAL).
	char prefix = engine->lljit->getDataLayout().getGlobalPrefix();
	llvm::orc::JITDylibSP process = engine->lljit->getProcessSymbolsJITDylib();
	if (!process) return fail(llvm::createStringError("LLJIT made no JITDylib of the process's symbols"));
	if (auto libm = llvm::orc::DynamicLibrarySearchGenerator::Load("libm.so.6", prefix))
		process->addGenerator(std::move(*libm));
	else
		llvm::consumeError(libm.takeError());
	TESSERA_LOG(Info, "jit: LLVM %s for %s (%s)", LLVM_VERSION_STRING, engine->cpu.c_str(), engine->features.c_str());
	return engine;
}

Engine& GetEngine() {
	static Engine* engine = CreateEngine();
	return *engine;
}

// Which registers the program ever writes; the others hold their constant.
std::vector<bool> WrittenRegisters(const Program& program) {
	std::vector<bool> written(program.register_count, false);
	auto mark = [&](uint32_t reg) {
		if (reg < written.size()) written[reg] = true;
	};
	for (const Inst& inst : program.insts) {
		mark(inst.dst);
		if (inst.wide) mark(inst.dst_hi);
	}
	for (const shader::PhiCopy& copy : program.copies) mark(copy.dst);
	for (const shader::BuiltinInput& input : program.builtins) mark(input.reg);
	return written;
}

// The ALU table's function for `op` (defined once the table is linked in).
llvm::Function* AluFunction(llvm::Module& module, Op op) {
	llvm::LLVMContext& context = module.getContext();
	std::string name = std::string("tessera_alu_") + kOpNames[static_cast<size_t>(op)];
	llvm::Type* i32 = llvm::Type::getInt32Ty(context);
	auto* type = llvm::FunctionType::get(i32, {i32, i32, i32, i32}, false);
	return llvm::cast<llvm::Function>(module.getOrInsertFunction(name, type).getCallee());
}

// Loop metadata for a lane loop of kSegmentLanes trips whose accesses
// (tagged with `group`) carry no dependence between iterations (no lane
// touches another lane's words), and that is not unrolled (which would come
// before the vectorizer and leave it nothing to do): it becomes vectors, no
// run-time alias checks. The vector loop that comes out is unrolled whole
// (followup_vectorized replaces the loop's attributes): where the CPU's
// vectors hold fewer than kSegmentLanes lanes (8 on AVX2, 4 on SSE) it
// would otherwise stay a loop of 2 or 4 trips, and a slot that a loop
// indexes stays in memory, a store and a load per value and block, where
// unrolled the slots become registers (SROA). On an AVX2 machine the
// Mandelbrot of bench/ went from about 45 to 30-36 ms a frame so; on
// AVX-512 the loop is one trip already.
llvm::MDNode* ParallelLoop(llvm::LLVMContext& context, llvm::MDNode* group) {
	llvm::Metadata* loop[] = {
	    nullptr,
	    llvm::MDNode::get(context, {llvm::MDString::get(context, "llvm.loop.parallel_accesses"), group}),
	    llvm::MDNode::get(context, {llvm::MDString::get(context, "llvm.loop.unroll.disable")}),
	    llvm::MDNode::get(context,
	                      {llvm::MDString::get(context, "llvm.loop.vectorize.followup_vectorized"),
	                       llvm::MDNode::get(context, {llvm::MDString::get(context, "llvm.loop.unroll.full")})}),
	};
	llvm::MDNode* id = llvm::MDNode::getDistinct(context, loop);
	id->replaceOperandWith(0, id);
	return id;
}

// The registers compiled code reads as immediates: constants no
// instruction, phi copy or built-in writes, and register 0 (zero).
std::unordered_map<uint32_t, uint32_t> ImmediateConstants(const Program& program) {
	std::vector<bool> written = WrittenRegisters(program);
	std::unordered_map<uint32_t, uint32_t> constants;
	for (const shader::Constant& constant : program.constants)
		if (constant.reg < written.size() && !written[constant.reg]) constants[constant.reg] = constant.bits;
	constants.emplace(0, 0u);
	return constants;
}

class SegmentBuilder {
public:
	SegmentBuilder(llvm::Module& module, const Program& program, const Engine& engine)
	    : module_(module),
	      context_(module.getContext()),
	      program_(program),
	      engine_(engine),
	      constants_(ImmediateConstants(program)) {}

	// Defines the function `name` for instructions [begin, end).
	void Build(const std::string& name, uint32_t begin, uint32_t end) {
		llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
		llvm::Type* i64 = llvm::Type::getInt64Ty(context_);
		llvm::Type* ptr = llvm::PointerType::get(context_, 0);
		auto* type = llvm::FunctionType::get(llvm::Type::getVoidTy(context_), {ptr, i64, i32, ptr}, false);
		auto* function = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module_);
		function->addFnAttr("target-cpu", engine_.cpu);
		function->addFnAttr("target-features", engine_.features);
		if (!engine_.prefer_vector_width.empty())
			function->addFnAttr("prefer-vector-width", engine_.prefer_vector_width);
		function->addFnAttr(llvm::Attribute::NoUnwind);
		llvm::Value* registers = function->getArg(0);
		llvm::Value* stride = function->getArg(1);
		llvm::Value* active = function->getArg(3);

		auto* entry = llvm::BasicBlock::Create(context_, "entry", function);
		auto* full = llvm::BasicBlock::Create(context_, "full", function);
		auto* masked = llvm::BasicBlock::Create(context_, "masked", function);
		auto* exit = llvm::BasicBlock::Create(context_, "exit", function);
		llvm::IRBuilder<> builder(entry);
		llvm::Value* lanes = builder.CreateZExt(function->getArg(2), i64, "lanes");
		builder.CreateCondBr(builder.CreateIsNull(active), full, masked);
		BuildLoop(full, exit, registers, stride, lanes, nullptr, begin, end);
		BuildLoop(masked, exit, registers, stride, lanes, active, begin, end);
		builder.SetInsertPoint(exit);
		builder.CreateRetVoid();
	}

private:
	llvm::Function* OpFunction(Op op) { return AluFunction(module_, op); }

	// The loop over the lanes from `preheader`, leaving to `exit`: groups of
	// kSegmentLanes lanes, each an inner loop of that constant trip count,
	// which the vectorizer turns into whole vectors with no remainder.
	void BuildLoop(llvm::BasicBlock* preheader, llvm::BasicBlock* exit, llvm::Value* registers, llvm::Value* stride,
	               llvm::Value* lanes, llvm::Value* active, uint32_t begin, uint32_t end) {
		llvm::Function* function = preheader->getParent();
		llvm::Type* i32 = llvm::Type::getInt32Ty(context_);
		llvm::Type* i64 = llvm::Type::getInt64Ty(context_);
		auto* group_head = llvm::BasicBlock::Create(context_, "group", function);
		auto* body = llvm::BasicBlock::Create(context_, "body", function);
		auto* group_next = llvm::BasicBlock::Create(context_, "group_next", function);
		llvm::IRBuilder<> builder(preheader);
		builder.CreateCondBr(builder.CreateICmpEQ(lanes, builder.getInt64(0)), exit, group_head);

		builder.SetInsertPoint(group_head);
		llvm::PHINode* group_first = builder.CreatePHI(i64, 2, "group_first");
		group_first->addIncoming(builder.getInt64(0), preheader);
		builder.CreateBr(body);

		// No lane touches another lane's registers: the loop's accesses carry
		// no dependence from one iteration to the next.
		llvm::MDNode* group = llvm::MDNode::getDistinct(context_, {});
		builder.SetInsertPoint(body);
		llvm::PHINode* k = builder.CreatePHI(i64, 2, "k");
		k->addIncoming(builder.getInt64(0), group_head);
		llvm::Value* lane = builder.CreateAdd(group_first, k, "lane", true, true);
		auto address = [&](uint32_t reg) {
			llvm::Value* row = builder.CreateMul(builder.getInt64(reg), stride);
			return builder.CreateGEP(i32, registers, builder.CreateAdd(row, lane));
		};
		std::unordered_map<uint32_t, llvm::Value*> values;  // register -> its value in this lane
		std::vector<uint32_t> order;                        // registers written, first write first
		auto read = [&](uint32_t reg) -> llvm::Value* {
			if (auto it = values.find(reg); it != values.end()) return it->second;
			if (auto it = constants_.find(reg); it != constants_.end()) return builder.getInt32(it->second);
			llvm::LoadInst* load = builder.CreateLoad(i32, address(reg));
			load->setMetadata(llvm::LLVMContext::MD_access_group, group);
			values[reg] = load;
			return load;
		};
		std::vector<bool> is_written(program_.register_count, false);
		for (uint32_t index = begin; index < end; ++index) {
			const Inst& inst = program_.insts[index];
			llvm::Value* operands[4] = {read(inst.a), read(inst.b), read(inst.c), read(inst.d)};
			llvm::Value* result = builder.CreateCall(OpFunction(inst.op), operands);
			values[inst.dst] = result;
			if (!is_written[inst.dst]) is_written[inst.dst] = true, order.push_back(inst.dst);
		}
		llvm::Value* on = nullptr;
		if (active) {
			llvm::LoadInst* mask = builder.CreateLoad(i32, builder.CreateGEP(i32, active, lane));
			mask->setMetadata(llvm::LLVMContext::MD_access_group, group);
			on = builder.CreateICmpNE(mask, builder.getInt32(0));
		}
		for (uint32_t reg : order) {
			llvm::Value* at = address(reg);
			llvm::Value* value = values[reg];
			if (on) {
				llvm::LoadInst* old = builder.CreateLoad(i32, at);
				old->setMetadata(llvm::LLVMContext::MD_access_group, group);
				value = builder.CreateSelect(on, value, old);
			}
			llvm::StoreInst* store = builder.CreateStore(value, at);
			store->setMetadata(llvm::LLVMContext::MD_access_group, group);
		}
		llvm::Value* k_next = builder.CreateAdd(k, builder.getInt64(1));
		k->addIncoming(k_next, builder.GetInsertBlock());
		llvm::BranchInst* back = builder.CreateCondBr(
		    builder.CreateICmpEQ(k_next, builder.getInt64(shader::kSegmentLanes)), group_next, body);
		back->setMetadata(llvm::LLVMContext::MD_loop, ParallelLoop(context_, group));

		builder.SetInsertPoint(group_next);
		llvm::Value* next_first = builder.CreateAdd(group_first, builder.getInt64(shader::kSegmentLanes));
		group_first->addIncoming(next_first, group_next);
		llvm::BranchInst* outer = builder.CreateCondBr(builder.CreateICmpUGE(next_first, lanes), exit, group_head);
		// The group loop stays a loop: unrolled it would only grow the code.
		llvm::Metadata* outer_loop[] = {
		    nullptr, llvm::MDNode::get(context_, {llvm::MDString::get(context_, "llvm.loop.unroll.disable")})};
		llvm::MDNode* outer_id = llvm::MDNode::getDistinct(context_, outer_loop);
		outer_id->replaceOperandWith(0, outer_id);
		outer->setMetadata(llvm::LLVMContext::MD_loop, outer_id);
	}

	llvm::Module& module_;
	llvm::LLVMContext& context_;
	const Program& program_;
	const Engine& engine_;
	std::unordered_map<uint32_t, uint32_t> constants_;
};

// Whether a program's lanes share workgroup memory or meet at barriers
// (see ProgramBuilder). Only compute programs are compiled so.
bool IsWorkgroupProgram(const Program& program) { return program.uses_barriers || program.workgroup_memory_size != 0; }

// Whether CompileProgram can compile `program` whole: every instruction is
// arithmetic, a 32-bit load or store of private memory, of a buffer (one
// descriptor), of workgroup memory (compute) or a push-constant load, or a
// quad derivative (not in compute); and no subgroup operations. Fragment
// programs that store to buffers stay with the interpreter, which drops
// helper lanes' stores.
bool CanCompileWhole(const Program& program) {
	if (program.uses_subgroups) return false;
	const bool workgroup = IsWorkgroupProgram(program);
	if (workgroup && program.stage != shader::Stage::kCompute) return false;
	for (const Inst& inst : program.insts) {
		if (inst.op < Op::kAluCount) continue;
		if (shader::IsDerivative(inst.op)) {
			if (workgroup) return false;
			continue;
		}
		if ((inst.op != Op::kLoad && inst.op != Op::kStore) || inst.wide || inst.region >= program.regions.size())
			return false;
		const shader::Region& region = program.regions[inst.region];
		switch (region.kind) {
		case shader::RegionKind::kPrivate: break;
		case shader::RegionKind::kWorkgroup: break;
		case shader::RegionKind::kStorageBuffer:
		case shader::RegionKind::kUniformBuffer:
			if (region.descriptor_count != 1) return false;
			if (inst.op == Op::kStore && program.stage == shader::Stage::kFragment) return false;
			break;
		case shader::RegionKind::kPushConstant:
			if (inst.op == Op::kStore) return false;
			break;
		default: return false;
		}
	}
	for (const shader::Block& block : program.blocks)
		if (block.inst_begin + block.inst_count > program.insts.size()) return false;
	return !program.blocks.empty();
}

// A whole program as one function (shader::ProgramFunction). Per vector of
// kSegmentLanes lanes: each lane's block number in an array (pcs), a
// dispatch loop that takes the lowest and runs it, and each block as lane
// loops (vectorized like segments) under the mask pcs[k] == block, split
// where a derivative reads across lanes (a vector operation of its own).
//
// A compute program with barriers runs its vectors (one workgroup) in
// rounds. A vector runs until each of its lanes is done or parked at a
// barrier (a lane there takes the number kParkedPc + barrier); then its
// block numbers go to ProgramEnvironment::pcs and the registers live past
// the barrier to the register file, and the next vector runs. When every
// vector has stopped so, each resumes where it parked (the piece of the
// block after the barrier has a number of its own) in the next round. So
// no lane passes a barrier before every lane of the workgroup has reached
// it, which is all a barrier promises: between barriers, the invocations of
// a data-race-free program may run in any order and give the same results.
class ProgramBuilder {
public:
	ProgramBuilder(llvm::Module& module, const Program& program, const Engine& engine)
	    : module_(module),
	      context_(module.getContext()),
	      program_(program),
	      engine_(engine),
	      i32_(llvm::Type::getInt32Ty(context_)),
	      i64_(llvm::Type::getInt64Ty(context_)),
	      ptr_(llvm::PointerType::get(context_, 0)),
	      builder_(context_),
	      constants_(ImmediateConstants(program)),
	      parks_(!program.barriers.empty()) {
		for (const shader::BarrierPoint& barrier : program_.barriers) barrier_blocks_.insert(barrier.block);
	}

	void Build(const std::string& name) {
		constexpr uint32_t W = shader::kSegmentLanes;
		const uint32_t block_count = static_cast<uint32_t>(program_.blocks.size());
		auto* type = llvm::FunctionType::get(i32_, {ptr_, i64_, ptr_}, false);
		function_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage, name, module_);
		function_->addFnAttr("target-cpu", engine_.cpu);
		function_->addFnAttr("target-features", engine_.features);
		if (!engine_.prefer_vector_width.empty())
			function_->addFnAttr("prefer-vector-width", engine_.prefer_vector_width);
		function_->addFnAttr(llvm::Attribute::NoUnwind);
		registers_ = function_->getArg(0);
		stride_ = function_->getArg(1);
		llvm::Value* environment = function_->getArg(2);

		auto* entry = llvm::BasicBlock::Create(context_, "entry", function_);
		builder_.SetInsertPoint(entry);
		auto field = [&](uint32_t index, llvm::Type* type) {
			return builder_.CreateLoad(type, builder_.CreateConstGEP1_64(i64_, environment, index));
		};
		private_ = field(0, ptr_);
		llvm::Value* spans = field(1, ptr_);
		lanes_ = field(2, i64_);
		llvm::Value* max_steps = field(3, i64_);
		llvm::Value* saved_pcs = parks_ ? field(5, ptr_) : nullptr;
		auto* pcs_slot = builder_.CreateAlloca(llvm::ArrayType::get(i32_, W), nullptr, "pcs");
		pcs_slot->setAlignment(llvm::Align(64));  // read and written whole as a vector too
		pcs_ = pcs_slot;
		dummy_ = builder_.CreateAlloca(i32_, nullptr, "dummy");
		builder_.CreateStore(builder_.getInt32(0), dummy_);
		// The vector's registers: one slot each, indexed by constants only, so
		// that once the lane loops are vectors, LLVM keeps them in registers
		// across blocks (SROA) instead of memory.
		for (uint32_t reg : ReferencedRegisters()) local_index_[reg] = uint32_t(local_index_.size());
		auto* locals = builder_.CreateAlloca(
		    llvm::ArrayType::get(VectorType(), std::max<size_t>(local_index_.size(), 1)), nullptr, "registers");
		locals->setAlignment(llvm::Align(64));
		locals_ = locals;
		llvm::Value* total_steps = builder_.CreateAlloca(i64_, nullptr, "total_steps");
		builder_.CreateStore(builder_.getInt64(0), total_steps);
		llvm::Value* chunk_steps = builder_.CreateAlloca(i64_, nullptr, "chunk_steps");
		llvm::Value* parked = builder_.CreateAlloca(builder_.getInt1Ty(), nullptr, "parked");
		LoadSpans(spans);
		if (parks_) live_at_barriers_ = LiveAtBarriers();

		auto* round = llvm::BasicBlock::Create(context_, "round", function_);
		auto* chunk = llvm::BasicBlock::Create(context_, "chunk", function_);
		auto* dispatch = llvm::BasicBlock::Create(context_, "dispatch", function_);
		auto* step = llvm::BasicBlock::Create(context_, "step", function_);
		auto* chunk_next = llvm::BasicBlock::Create(context_, "chunk_next", function_);
		auto* hung = llvm::BasicBlock::Create(context_, "hung", function_);
		auto* done = llvm::BasicBlock::Create(context_, "done", function_);
		builder_.CreateCondBr(builder_.CreateICmpEQ(lanes_, builder_.getInt64(0)), done, round);

		// A round: every vector runs until its lanes are done or parked.
		builder_.SetInsertPoint(round);
		llvm::PHINode* round_index = builder_.CreatePHI(i64_, 2, "round_index");
		round_index->addIncoming(builder_.getInt64(0), entry);
		llvm::Value* first_round = builder_.CreateICmpEQ(round_index, builder_.getInt64(0));
		builder_.CreateStore(builder_.getFalse(), parked);
		// A lane that parks at a barrier in every round of an endless loop.
		auto* round_go = llvm::BasicBlock::Create(context_, "round_go", function_);
		builder_.CreateCondBr(builder_.CreateICmpUGT(round_index, max_steps), hung, round_go);
		builder_.SetInsertPoint(round_go);
		builder_.CreateBr(chunk);

		// A vector of lanes starts: all at block 0, padding lanes done; in a
		// later round, where its lanes stopped, parked lanes at the piece
		// after their barrier.
		builder_.SetInsertPoint(chunk);
		first_ = builder_.CreatePHI(i64_, 2, "first");
		first_->addIncoming(builder_.getInt64(0), round_go);
		llvm::Value* first32 = builder_.CreateTrunc(first_, i32_);
		llvm::Value* lane_ids = builder_.CreateAdd(builder_.CreateVectorSplat(W, first32), Iota());
		llvm::Value* live =
		    builder_.CreateICmpULT(lane_ids, builder_.CreateVectorSplat(W, builder_.CreateTrunc(lanes_, i32_)));
		llvm::Value* start_pcs = builder_.CreateSelect(live, Splat(0), Splat(kDonePc));
		llvm::Value* saved_at = parks_ ? builder_.CreateGEP(i32_, saved_pcs, first_) : nullptr;
		if (parks_) {
			llvm::Value* saved = builder_.CreateAlignedLoad(VectorType(), saved_at, llvm::Align(4));
			llvm::Value* waiting = builder_.CreateAnd(builder_.CreateICmpUGE(saved, Splat(kParkedPc)),
			                                          builder_.CreateICmpNE(saved, Splat(kDonePc)));
			llvm::Value* resumed = builder_.CreateSelect(
			    waiting, builder_.CreateAdd(builder_.CreateSub(saved, Splat(kParkedPc)), Splat(block_count)), saved);
			start_pcs = builder_.CreateSelect(first_round, start_pcs, resumed);
		}
		builder_.CreateStore(start_pcs, pcs_);
		builder_.CreateStore(builder_.getInt64(0), chunk_steps);
		// Each register's lanes from the interpreter's register file (the
		// inputs: built-ins; the copies of registers written before they are
		// read are dead code); resuming, the registers live past a barrier.
		auto copy_in = [&](const std::vector<uint32_t>& regs) {
			for (uint32_t reg : regs)
				builder_.CreateStore(builder_.CreateAlignedLoad(VectorType(), FileRow(reg), llvm::Align(4)), Row(reg));
		};
		std::vector<uint32_t> all_regs;
		for (const auto& [reg, index] : local_index_) all_regs.push_back(reg);
		if (!parks_) {
			copy_in(all_regs);
			builder_.CreateBr(dispatch);
		} else {
			auto* fresh = llvm::BasicBlock::Create(context_, "fresh", function_);
			auto* resume = llvm::BasicBlock::Create(context_, "resume", function_);
			auto* resume_copy = llvm::BasicBlock::Create(context_, "resume_copy", function_);
			builder_.CreateCondBr(first_round, fresh, resume);
			builder_.SetInsertPoint(fresh);
			copy_in(all_regs);
			builder_.CreateBr(dispatch);
			builder_.SetInsertPoint(resume);
			// A vector whose lanes are all done stays so.
			llvm::Value* finished = builder_.CreateAndReduce(builder_.CreateICmpEQ(start_pcs, Splat(kDonePc)));
			builder_.CreateCondBr(finished, chunk_next, resume_copy);
			builder_.SetInsertPoint(resume_copy);
			copy_in(live_at_barriers_);
			builder_.CreateBr(dispatch);
		}

		// The lowest block any lane waits at; none: this vector is done (or
		// all its lanes that are not are parked).
		builder_.SetInsertPoint(dispatch);
		llvm::Value* pcs = builder_.CreateLoad(VectorType(), pcs_);
		llvm::Value* current = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::vector_reduce_umin, pcs);
		llvm::BasicBlock* stopped = chunk_next;
		if (parks_) {
			// The vector stops: its block numbers saved, and if a lane
			// parked, the registers live past the barriers.
			stopped = llvm::BasicBlock::Create(context_, "stopped", function_);
			auto* park = llvm::BasicBlock::Create(context_, "park", function_);
			builder_.CreateCondBr(builder_.CreateICmpUGE(current, builder_.getInt32(kParkedPc)), stopped, step);
			builder_.SetInsertPoint(stopped);
			llvm::Value* final_pcs = builder_.CreateLoad(VectorType(), pcs_);
			builder_.CreateAlignedStore(final_pcs, saved_at, llvm::Align(4));
			llvm::Value* all_done = builder_.CreateAndReduce(builder_.CreateICmpEQ(final_pcs, Splat(kDonePc)));
			builder_.CreateCondBr(all_done, chunk_next, park);
			builder_.SetInsertPoint(park);
			builder_.CreateStore(builder_.getTrue(), parked);
			for (uint32_t reg : live_at_barriers_)
				builder_.CreateAlignedStore(builder_.CreateLoad(VectorType(), Row(reg)), FileRow(reg), llvm::Align(4));
			builder_.CreateBr(chunk_next);
		} else {
			builder_.CreateCondBr(builder_.CreateICmpEQ(current, builder_.getInt32(kDonePc)), chunk_next, step);
		}
		builder_.SetInsertPoint(step);

		// The pieces: each block up to its first barrier (numbered as the
		// block), and the rest of it after each barrier (block_count + the
		// barrier's index).
		struct Piece {
			uint32_t pc, block, begin, end;
			std::optional<uint32_t> park;  // the barrier that ends it, else the terminator
		};
		std::vector<Piece> pieces;
		for (uint32_t b = 0; b < block_count; ++b) {
			const shader::Block& block = program_.blocks[b];
			Piece piece{b, b, block.inst_begin, block.inst_begin + block.inst_count, std::nullopt};
			for (uint32_t p = 0; p < program_.barriers.size(); ++p) {
				if (program_.barriers[p].block != b) continue;
				Piece before = piece;
				before.end = program_.barriers[p].inst;
				before.park = p;
				pieces.push_back(before);
				piece = {block_count + p, b, program_.barriers[p].inst, piece.end, std::nullopt};
			}
			pieces.push_back(piece);
		}
		// The pieces of loops twice: for a vector whose lanes all wait there
		// (the converged case: no masks, as the interpreter's converged
		// mode), and under the mask of the lanes that do. Elsewhere a piece
		// runs once a vector, and one masked copy keeps compiles short.
		const std::vector<bool> in_loop = BlocksInLoops();
		auto* step_whole = llvm::BasicBlock::Create(context_, "step_whole", function_);
		auto* step_masked = llvm::BasicBlock::Create(context_, "step_masked", function_);
		llvm::Value* highest = builder_.CreateUnaryIntrinsic(llvm::Intrinsic::vector_reduce_umax, pcs);
		builder_.CreateCondBr(builder_.CreateICmpEQ(current, highest), step_whole, step_masked);
		std::unordered_map<uint32_t, llvm::BasicBlock*> piece_blocks[2];  // [converged]
		std::vector<std::pair<const Piece*, bool>> variants;
		for (const Piece& piece : pieces) {
			auto* masked = llvm::BasicBlock::Create(context_, "piece" + std::to_string(piece.pc), function_);
			piece_blocks[0][piece.pc] = piece_blocks[1][piece.pc] = masked;
			variants.push_back({&piece, false});
			if (in_loop[piece.block]) {
				piece_blocks[1][piece.pc] =
				    llvm::BasicBlock::Create(context_, "whole" + std::to_string(piece.pc), function_);
				variants.push_back({&piece, true});
			}
		}
		for (bool converged : {false, true}) {
			builder_.SetInsertPoint(converged ? step_whole : step_masked);
			llvm::SwitchInst* to_piece = builder_.CreateSwitch(current, hung, uint32_t(pieces.size()));
			for (const Piece& piece : pieces)
				to_piece->addCase(builder_.getInt32(piece.pc), piece_blocks[converged][piece.pc]);
		}
		for (const auto& [piece_at, converged] : variants) {
			const Piece& piece = *piece_at;
			converged_ = converged;
			builder_.SetInsertPoint(piece_blocks[converged_][piece.pc]);
			// Every block run counts against the step bound (endless loops).
			llvm::Value* steps = builder_.CreateAdd(builder_.CreateLoad(i64_, chunk_steps), builder_.getInt64(1));
			builder_.CreateStore(steps, chunk_steps);
			builder_.CreateStore(builder_.CreateAdd(builder_.CreateLoad(i64_, total_steps), builder_.getInt64(1)),
			                     total_steps);
			auto* run = llvm::BasicBlock::Create(context_, "run" + std::to_string(piece.pc), function_);
			builder_.CreateCondBr(builder_.CreateICmpUGT(steps, max_steps), hung, run);
			builder_.SetInsertPoint(run);
			mask_pc_ = piece.pc;
			EmitRange(piece.block, piece.begin, piece.end, !piece.park);
			std::vector<uint32_t> successors;
			if (piece.park) {
				// Its lanes park; the vector stops once no lane can go on.
				llvm::Value* now = builder_.CreateLoad(VectorType(), pcs_);
				builder_.CreateStore(builder_.CreateSelect(builder_.CreateICmpEQ(now, Splat(piece.pc)),
				                                           Splat(kParkedPc + *piece.park), now),
				                     pcs_);
				builder_.CreateBr(dispatch);
				continue;
			}
			// Where every lane went the same way (the common case: uniform
			// branches, loops all lanes still run), straight there; else the
			// dispatch finds the lowest block.
			const shader::Terminator& t = program_.blocks[piece.block].terminator;
			if (t.kind == shader::TerminatorKind::kExit) successors.push_back(kDonePc);
			for (uint32_t e = 0; e < t.edge_count; ++e) {
				uint32_t target = Forward(program_.edges[t.edge_begin + e].block);
				if (std::find(successors.begin(), successors.end(), target) == successors.end())
					successors.push_back(target);
			}
			llvm::Value* now = builder_.CreateLoad(VectorType(), pcs_);
			for (uint32_t target : successors) {
				auto* next = llvm::BasicBlock::Create(context_, "not_all", function_);
				llvm::Value* all = builder_.CreateAndReduce(builder_.CreateICmpEQ(now, Splat(target)));
				builder_.CreateCondBr(all, target == kDonePc ? stopped : piece_blocks[1].at(target), next);
				builder_.SetInsertPoint(next);
			}
			builder_.CreateBr(dispatch);
		}

		builder_.SetInsertPoint(chunk_next);
		llvm::Value* next_first = builder_.CreateAdd(first_, builder_.getInt64(W));
		auto* round_end = llvm::BasicBlock::Create(context_, "round_end", function_);
		builder_.CreateCondBr(builder_.CreateICmpULT(next_first, lanes_), chunk, round_end);
		first_->addIncoming(next_first, chunk_next);
		// Another round while a lane is parked.
		builder_.SetInsertPoint(round_end);
		round_index->addIncoming(builder_.CreateAdd(round_index, builder_.getInt64(1)), round_end);
		builder_.CreateCondBr(builder_.CreateLoad(builder_.getInt1Ty(), parked), round, done);

		builder_.SetInsertPoint(hung);
		builder_.CreateStore(builder_.CreateLoad(i64_, total_steps), builder_.CreateConstGEP1_64(i64_, environment, 4));
		builder_.CreateRet(builder_.getInt32(1));
		builder_.SetInsertPoint(done);
		builder_.CreateStore(builder_.CreateLoad(i64_, total_steps), builder_.CreateConstGEP1_64(i64_, environment, 4));
		builder_.CreateRet(builder_.getInt32(0));
	}

private:
	static constexpr uint32_t kDonePc = UINT32_MAX;

	// The regions' bytes, once per call.
	void LoadSpans(llvm::Value* spans) {
		for (const Inst& inst : program_.insts) {
			if (inst.op != Op::kLoad && inst.op != Op::kStore) continue;
			if (program_.regions[inst.region].kind == shader::RegionKind::kPrivate) continue;
			if (span_data_.count(inst.region)) continue;
			llvm::Value* span = builder_.CreateConstGEP1_64(i64_, spans, 2 * uint64_t{inst.region});
			span_data_[inst.region] = builder_.CreateLoad(ptr_, span);
			span_size_[inst.region] = builder_.CreateLoad(i64_, builder_.CreateConstGEP1_64(i64_, span, 1));
		}
	}

	// Parked lanes' numbers: kParkedPc + the barrier's index (below kDonePc).
	static constexpr uint32_t kParkedPc = 0x80000000u;

	llvm::FixedVectorType* VectorType() const { return llvm::FixedVectorType::get(i32_, shader::kSegmentLanes); }
	llvm::Constant* Iota() const {
		std::vector<llvm::Constant*> ids;
		for (uint32_t k = 0; k < shader::kSegmentLanes; ++k) ids.push_back(llvm::ConstantInt::get(i32_, k));
		return llvm::ConstantVector::get(ids);
	}
	llvm::Constant* Splat(uint32_t value) const { return llvm::ConstantInt::get(VectorType(), value); }

	// The vector's lanes of register `reg` in the interpreter's register file.
	llvm::Value* FileRow(uint32_t reg) {
		return builder_.CreateGEP(i32_, registers_,
		                          builder_.CreateAdd(builder_.CreateMul(builder_.getInt64(reg), stride_), first_));
	}

	// Where a branch to `target` leads: past blocks that only branch on
	// (no instructions, no phi copies). Lanes would leave them at once, and
	// skipping them changes no lane's results (a whole program has no
	// operation across lanes that control flow could reorder).
	uint32_t Forward(uint32_t target) const {
		for (size_t hops = 0; hops < program_.blocks.size(); ++hops) {
			const shader::Block& block = program_.blocks[target];
			const shader::Terminator& t = block.terminator;
			if (block.inst_count != 0 || t.kind != shader::TerminatorKind::kBranch || t.edge_count != 1 ||
			    barrier_blocks_.count(target))
				break;
			const shader::Edge& edge = program_.edges[t.edge_begin];
			if (edge.copy_count != 0 || edge.block == target) break;
			target = edge.block;
		}
		return target;
	}

	// The vector's slot for register `reg` (a <16 x i32>).
	llvm::Value* Row(uint32_t reg) { return builder_.CreateConstGEP1_32(VectorType(), locals_, local_index_.at(reg)); }

	// The registers (but constants) whose values a lane may still read after
	// a barrier: live at some barrier point. Liveness over the blocks,
	// generous where it is cheap to be (an instruction's four operands all
	// count as read; a phi copy's source is read at the end of its block).
	std::vector<uint32_t> LiveAtBarriers() const {
		const size_t count = program_.blocks.size();
		auto reads = [&](const Inst& inst, std::set<uint32_t>& live) {
			for (uint32_t reg : {inst.a, inst.b, inst.c, inst.d})
				if (!constants_.count(reg)) live.insert(reg);
		};
		auto writes = [&](const Inst& inst) { return inst.op < Op::kAluCount || inst.op == Op::kLoad; };
		// Live at the end of block b, before its terminator, given live_in.
		std::vector<std::set<uint32_t>> live_in(count);
		auto live_at_end = [&](uint32_t b) {
			std::set<uint32_t> live;
			const shader::Terminator& t = program_.blocks[b].terminator;
			if (t.kind == shader::TerminatorKind::kConditional || t.kind == shader::TerminatorKind::kSwitch)
				if (!constants_.count(t.selector)) live.insert(t.selector);
			for (uint32_t e = 0; e < t.edge_count; ++e) {
				const shader::Edge& edge = program_.edges[t.edge_begin + e];
				std::set<uint32_t> along = live_in[edge.block];
				for (uint32_t c = 0; c < edge.copy_count; ++c) along.erase(program_.copies[edge.copy_begin + c].dst);
				for (uint32_t c = 0; c < edge.copy_count; ++c) {
					uint32_t src = program_.copies[edge.copy_begin + c].src;
					if (!constants_.count(src)) along.insert(src);
				}
				live.insert(along.begin(), along.end());
			}
			return live;
		};
		// Backward from the end of block b to instruction `stop`.
		auto live_before = [&](uint32_t b, uint32_t stop) {
			std::set<uint32_t> live = live_at_end(b);
			const shader::Block& block = program_.blocks[b];
			for (uint32_t i = block.inst_begin + block.inst_count; i-- > stop;) {
				const Inst& inst = program_.insts[i];
				if (writes(inst)) live.erase(inst.dst);
				reads(inst, live);
			}
			return live;
		};
		for (bool changed = true; changed;) {
			changed = false;
			for (uint32_t b = uint32_t(count); b-- > 0;) {
				std::set<uint32_t> live = live_before(b, program_.blocks[b].inst_begin);
				if (live != live_in[b]) live_in[b] = std::move(live), changed = true;
			}
		}
		std::set<uint32_t> at_barriers;
		for (const shader::BarrierPoint& barrier : program_.barriers) {
			std::set<uint32_t> live = live_before(barrier.block, barrier.inst);
			at_barriers.insert(live.begin(), live.end());
		}
		return {at_barriers.begin(), at_barriers.end()};
	}

	// Whether each block is on a cycle of the control flow graph.
	std::vector<bool> BlocksInLoops() const {
		const size_t count = program_.blocks.size();
		std::vector<bool> in_loop(count, false);
		for (uint32_t b = 0; b < count; ++b) {
			// Does b reach itself?
			std::vector<bool> seen(count, false);
			std::vector<uint32_t> stack{b};
			while (!stack.empty() && !in_loop[b]) {
				uint32_t at = stack.back();
				stack.pop_back();
				const shader::Terminator& t = program_.blocks[at].terminator;
				for (uint32_t e = 0; e < t.edge_count; ++e) {
					uint32_t next = program_.edges[t.edge_begin + e].block;
					if (next == b) in_loop[b] = true;
					if (!seen[next]) seen[next] = true, stack.push_back(next);
				}
			}
		}
		return in_loop;
	}

	// Registers the program names, but the constants (immediates).
	std::vector<uint32_t> ReferencedRegisters() const {
		std::set<uint32_t> regs;
		auto add = [&](uint32_t reg) {
			if (!constants_.count(reg)) regs.insert(reg);
		};
		for (const shader::Block& block : program_.blocks) {
			for (uint32_t i = block.inst_begin; i < block.inst_begin + block.inst_count; ++i) {
				const Inst& inst = program_.insts[i];
				for (uint32_t reg : {inst.dst, inst.a, inst.b, inst.c, inst.d}) add(reg);
			}
			if (block.terminator.kind != shader::TerminatorKind::kExit &&
			    block.terminator.kind != shader::TerminatorKind::kBranch)
				add(block.terminator.selector);
		}
		for (const shader::PhiCopy& copy : program_.copies) add(copy.dst), add(copy.src);
		return {regs.begin(), regs.end()};
	}

	// Instructions [begin, end) of block b: lane loops under the mask
	// pcs[k] == mask_pc_, split at derivatives and buffer accesses (vector
	// operations of their own, whose fast paths look at the whole vector);
	// the block's terminator in the last when `terminator`.
	void EmitRange(uint32_t b, uint32_t begin, uint32_t end, bool terminator) {
		for (uint32_t i = begin; i < end; ++i) {
			const Inst& inst = program_.insts[i];
			const bool derivative = shader::IsDerivative(inst.op);
			const bool buffer = (inst.op == Op::kLoad || inst.op == Op::kStore) &&
			                    program_.regions[inst.region].kind != shader::RegionKind::kPrivate;
			if (!derivative && !buffer) continue;
			if (i > begin) EmitLaneLoop(b, begin, i, false);
			if (derivative)
				EmitDerivative(inst);
			else
				EmitBufferAccess(inst);
			begin = i + 1;
		}
		if (terminator || end > begin) EmitLaneLoop(b, begin, end, terminator);
	}

	// A register's value in the vector's lanes (a constant's, splat).
	llvm::Value* LoadRow(uint32_t reg) {
		if (auto it = constants_.find(reg); it != constants_.end())
			return llvm::ConstantInt::get(VectorType(), it->second);
		return builder_.CreateLoad(VectorType(), Row(reg));
	}

	// A 32-bit load or store of a buffer or push constants for the vector's
	// lanes, bounds-checked as the interpreter does (robustBufferAccess:
	// loads outside read 0, stores outside are dropped, in lane order).
	// Lanes reading consecutive words inside the buffer are one vector load,
	// lanes reading one word one scalar load (LoadLanes' fast paths); stores
	// to consecutive words one masked vector store; the rest gathers and
	// scatters.
	void EmitBufferAccess(const Inst& inst) {
		constexpr uint32_t W = shader::kSegmentLanes;
		auto* i8 = builder_.getInt8Ty();
		auto* vector64 = llvm::FixedVectorType::get(i64_, W);
		auto splat = [&](uint32_t v) { return llvm::ConstantInt::get(VectorType(), v); };
		llvm::Value* base = span_data_.at(inst.region);
		llvm::Value* size = span_size_.at(inst.region);
		llvm::Value* on = converged_ ? llvm::ConstantInt::getTrue(llvm::FixedVectorType::get(builder_.getInt1Ty(), W))
		                             : builder_.CreateICmpEQ(builder_.CreateLoad(VectorType(), pcs_), splat(mask_pc_));
		llvm::Value* address = LoadRow(inst.a);
		llvm::Value* offset = builder_.CreateAdd(builder_.CreateZExt(address, vector64),
		                                         llvm::ConstantInt::get(vector64, uint64_t{inst.imm}));
		llvm::Value* inside = builder_.CreateICmpULE(builder_.CreateAdd(offset, llvm::ConstantInt::get(vector64, 4)),
		                                             builder_.CreateVectorSplat(W, size));
		llvm::Value* first_address = builder_.CreateExtractElement(address, uint64_t{0});
		llvm::Value* first_offset = builder_.CreateExtractElement(offset, uint64_t{0});
		llvm::Value* first_splat = builder_.CreateVectorSplat(W, first_address);
		llvm::Value* consecutive = builder_.CreateAndReduce(
		    builder_.CreateICmpEQ(address, builder_.CreateAdd(first_splat, builder_.CreateShl(Iota(), splat(2)))));
		llvm::Value* all_inside =
		    builder_.CreateICmpULE(builder_.CreateAdd(first_offset, builder_.getInt64(4 * W)), size);
		llvm::Value* pointers = builder_.CreateGEP(i8, base, offset);
		auto* join = llvm::BasicBlock::Create(context_, "accessed", function_);
		auto* whole = llvm::BasicBlock::Create(context_, "whole", function_);
		auto* other = llvm::BasicBlock::Create(context_, "other", function_);
		llvm::Value* value = inst.op == Op::kStore ? LoadRow(inst.b) : nullptr;
		builder_.CreateCondBr(builder_.CreateAnd(consecutive, all_inside), whole, other);

		if (inst.op == Op::kStore) {
			builder_.SetInsertPoint(whole);
			builder_.CreateMaskedStore(value, builder_.CreateGEP(i8, base, first_offset), llvm::Align(1), on);
			builder_.CreateBr(join);
			builder_.SetInsertPoint(other);
			builder_.CreateMaskedScatter(value, pointers, llvm::Align(1), builder_.CreateAnd(on, inside));
			builder_.CreateBr(join);
			builder_.SetInsertPoint(join);
			return;
		}
		builder_.SetInsertPoint(whole);
		llvm::Value* whole_value =
		    builder_.CreateAlignedLoad(VectorType(), builder_.CreateGEP(i8, base, first_offset), llvm::Align(1));
		builder_.CreateBr(join);
		builder_.SetInsertPoint(other);
		auto* one = llvm::BasicBlock::Create(context_, "one", function_);
		auto* scattered = llvm::BasicBlock::Create(context_, "scattered", function_);
		llvm::Value* uniform = builder_.CreateAndReduce(builder_.CreateICmpEQ(address, first_splat));
		llvm::Value* first_inside =
		    builder_.CreateICmpULE(builder_.CreateAdd(first_offset, builder_.getInt64(4)), size);
		builder_.CreateCondBr(builder_.CreateAnd(uniform, first_inside), one, scattered);
		builder_.SetInsertPoint(one);
		llvm::Value* one_value = builder_.CreateVectorSplat(
		    W, builder_.CreateAlignedLoad(i32_, builder_.CreateGEP(i8, base, first_offset), llvm::Align(1)));
		builder_.CreateBr(join);
		builder_.SetInsertPoint(scattered);
		llvm::Value* gathered = builder_.CreateMaskedGather(VectorType(), pointers, llvm::Align(1), inside,
		                                                    llvm::ConstantInt::get(VectorType(), 0));
		builder_.CreateBr(join);
		builder_.SetInsertPoint(join);
		llvm::PHINode* loaded = builder_.CreatePHI(VectorType(), 3);
		loaded->addIncoming(whole_value, whole);
		loaded->addIncoming(one_value, one);
		loaded->addIncoming(gathered, scattered);
		llvm::Value* dst = Row(inst.dst);
		builder_.CreateStore(builder_.CreateSelect(on, loaded, builder_.CreateLoad(VectorType(), dst)), dst);
	}

	// Lanes (dx, dy) of a quad difference these pixels (as the interpreter).
	void EmitDerivative(const Inst& inst) {
		static constexpr uint8_t kFrom[4][2][4] = {
		    {{1, 1, 3, 3}, {0, 0, 2, 2}},
		    {{2, 3, 2, 3}, {0, 1, 0, 1}},
		    {{1, 1, 1, 1}, {0, 0, 0, 0}},
		    {{2, 2, 2, 2}, {0, 0, 0, 0}},
		};
		const auto& from = kFrom[static_cast<uint32_t>(inst.op) - static_cast<uint32_t>(Op::kDerivativeFineX)];
		constexpr uint32_t W = shader::kSegmentLanes;
		auto splat = [&](uint32_t v) { return llvm::ConstantInt::get(VectorType(), v); };
		llvm::Value* quad = builder_.CreateAnd(Iota(), splat(~3u));
		// Lanes of the quad that exist: a quad cut short by the end of the
		// lane group borrows a neighbour's value.
		llvm::Value* first32 = builder_.CreateTrunc(first_, i32_);
		llvm::Value* avail = builder_.CreateSub(
		    builder_.CreateVectorSplat(W, builder_.CreateSub(builder_.CreateTrunc(lanes_, i32_), first32)), quad);
		llvm::Value* n = builder_.CreateSelect(builder_.CreateICmpSLT(avail, splat(0)), splat(0), avail);
		n = builder_.CreateSelect(builder_.CreateICmpSGT(n, splat(4)), splat(4), n);
		// The value lane x of each quad holds, for x = from[k & 3]: lane
		// shuffles of the register, and where the quad is cut short the first
		// of x, x ^ 1, x ^ 2, 0 that exists.
		llvm::Value* source = LoadRow(inst.a);
		auto pick = [&](const uint8_t(&x)[4]) {
			llvm::Value* picked = nullptr;
			for (uint32_t flip : {3u, 2u, 1u, 0u}) {  // 3: lane 0 of the quad
				std::vector<int> mask;
				std::vector<llvm::Constant*> index;
				for (uint32_t k = 0; k < W; ++k) {
					uint32_t lane = flip == 3 ? 0u : (x[k & 3] ^ flip);
					mask.push_back(int((k & ~3u) + lane));
					index.push_back(llvm::ConstantInt::get(i32_, lane));
				}
				llvm::Value* shuffled = builder_.CreateShuffleVector(source, mask);
				picked = picked ? builder_.CreateSelect(builder_.CreateICmpULT(llvm::ConstantVector::get(index), n),
				                                        shuffled, picked)
				                : shuffled;
			}
			return builder_.CreateBitCast(picked, llvm::FixedVectorType::get(llvm::Type::getFloatTy(context_), W));
		};
		llvm::Value* v0 = pick(from[0]);
		llvm::Value* v1 = pick(from[1]);
		llvm::Value* difference = builder_.CreateBitCast(builder_.CreateFSub(v0, v1), VectorType());
		llvm::Value* on = converged_ ? llvm::ConstantInt::getTrue(llvm::FixedVectorType::get(builder_.getInt1Ty(), W))
		                             : builder_.CreateICmpEQ(builder_.CreateLoad(VectorType(), pcs_), splat(mask_pc_));
		llvm::Value* dst = Row(inst.dst);
		builder_.CreateStore(builder_.CreateSelect(on, difference, builder_.CreateLoad(VectorType(), dst)), dst);
	}

	// Instructions [begin, end) of block b for each lane of the vector, and
	// the block's terminator when `terminator`.
	void EmitLaneLoop(uint32_t b, uint32_t begin, uint32_t end, bool terminator) {
		llvm::BasicBlock* preheader = builder_.GetInsertBlock();
		auto* body = llvm::BasicBlock::Create(context_, "lanes", function_);
		auto* after = llvm::BasicBlock::Create(context_, "after", function_);
		builder_.CreateBr(body);
		llvm::MDNode* group = llvm::MDNode::getDistinct(context_, {});
		auto tag = [&](llvm::Instruction* access) {
			access->setMetadata(llvm::LLVMContext::MD_access_group, group);
			return access;
		};
		builder_.SetInsertPoint(body);
		llvm::PHINode* k = builder_.CreatePHI(i64_, 2, "k");
		k->addIncoming(builder_.getInt64(0), preheader);
		llvm::Value* lane = builder_.CreateAdd(first_, k, "lane", true, true);
		llvm::Value* pc_at = builder_.CreateGEP(i32_, pcs_, k);
		llvm::Value* pc = tag(builder_.CreateLoad(i32_, pc_at));
		llvm::Value* on = converged_ ? builder_.getTrue() : builder_.CreateICmpEQ(pc, builder_.getInt32(mask_pc_));

		auto address = [&](uint32_t reg) { return builder_.CreateGEP(i32_, Row(reg), k); };
		std::unordered_map<uint32_t, llvm::Value*> values;
		std::vector<uint32_t> order;
		auto read = [&](uint32_t reg) -> llvm::Value* {
			if (auto it = values.find(reg); it != values.end()) return it->second;
			if (auto it = constants_.find(reg); it != constants_.end()) return builder_.getInt32(it->second);
			llvm::Value* value = tag(builder_.CreateLoad(i32_, address(reg)));
			values[reg] = value;
			return value;
		};
		std::unordered_set<uint32_t> written;
		auto write = [&](uint32_t reg, llvm::Value* value) {
			if (written.insert(reg).second) order.push_back(reg);
			values[reg] = value;
		};
		// A private word of this lane: its address and whether it is inside
		// the region (outside: the dummy word, which stays 0).
		auto private_word = [&](const Inst& inst,
		                        const shader::Region& region) -> std::pair<llvm::Value*, llvm::Value*> {
			if (inst.a == 0 && inst.imm % 4 == 0 && uint64_t{inst.imm} + 4 <= region.size) {
				llvm::Value* row = builder_.CreateMul(builder_.getInt64(region.base + inst.imm / 4), stride_);
				return {builder_.CreateGEP(i32_, private_, builder_.CreateAdd(row, lane)), builder_.getTrue()};
			}
			llvm::Value* offset =
			    builder_.CreateAdd(builder_.CreateZExt(read(inst.a), i64_), builder_.getInt64(inst.imm));
			llvm::Value* inside = builder_.CreateAnd(
			    builder_.CreateICmpULE(builder_.CreateAdd(offset, builder_.getInt64(4)),
			                           builder_.getInt64(region.size)),
			    builder_.CreateICmpEQ(builder_.CreateAnd(offset, builder_.getInt64(3)), builder_.getInt64(0)));
			llvm::Value* word = builder_.CreateAdd(builder_.getInt64(region.base), builder_.CreateLShr(offset, 2));
			llvm::Value* at =
			    builder_.CreateGEP(i32_, private_, builder_.CreateAdd(builder_.CreateMul(word, stride_), lane));
			return {builder_.CreateSelect(inside, at, dummy_), inside};
		};
		for (uint32_t index = begin; index < end; ++index) {
			const Inst& inst = program_.insts[index];
			if (inst.op < Op::kAluCount) {
				llvm::Value* operands[4] = {read(inst.a), read(inst.b), read(inst.c), read(inst.d)};
				write(inst.dst, builder_.CreateCall(OpFunction(inst.op), operands));
				continue;
			}
			// Private memory (buffers are vector operations of their own).
			auto [at, inside] = private_word(inst, program_.regions[inst.region]);
			if (inst.op == Op::kLoad) {
				write(inst.dst,
				      builder_.CreateSelect(inside, tag(builder_.CreateLoad(i32_, at)), builder_.getInt32(0)));
			} else {
				// The lane's own word: an inactive lane writes back what is there.
				llvm::Value* value = read(inst.b);
				llvm::Value* old = tag(builder_.CreateLoad(i32_, at));
				tag(builder_.CreateStore(builder_.CreateSelect(builder_.CreateAnd(on, inside), value, old), at));
			}
		}

		if (terminator) {
			const shader::Terminator& t = program_.blocks[b].terminator;
			const shader::Edge* edges = program_.edges.data() + t.edge_begin;
			// Each edge's phi copies for the lanes that take it (taken[e]).
			auto copy_along = [&](const std::vector<llvm::Value*>& taken) {
				for (uint32_t e = 0; e < t.edge_count; ++e) {
					const shader::Edge& edge = edges[e];
					std::vector<llvm::Value*> sources;
					for (uint32_t c = 0; c < edge.copy_count; ++c)
						sources.push_back(read(program_.copies[edge.copy_begin + c].src));
					for (uint32_t c = 0; c < edge.copy_count; ++c) {
						uint32_t dst = program_.copies[edge.copy_begin + c].dst;
						write(dst, taken[e] ? builder_.CreateSelect(taken[e], sources[c], read(dst)) : sources[c]);
					}
				}
			};
			llvm::Value* next = builder_.getInt32(kDonePc);
			switch (t.kind) {
			case shader::TerminatorKind::kExit: break;
			case shader::TerminatorKind::kBranch:
				copy_along({nullptr});
				next = builder_.getInt32(Forward(edges[0].block));
				break;
			case shader::TerminatorKind::kConditional: {
				llvm::Value* yes = builder_.CreateICmpNE(read(t.selector), builder_.getInt32(0));
				copy_along({yes, builder_.CreateNot(yes)});
				next = builder_.CreateSelect(yes, builder_.getInt32(Forward(edges[0].block)),
				                             builder_.getInt32(Forward(edges[1].block)));
				break;
			}
			case shader::TerminatorKind::kSwitch: {
				// The first matching case's edge, else the default (edge 0).
				llvm::Value* selector = read(t.selector);
				llvm::Value* edge = builder_.getInt32(0);
				for (uint32_t c = t.edge_count - 1; c >= 1; --c)
					edge = builder_.CreateSelect(
					    builder_.CreateICmpEQ(selector, builder_.getInt32(program_.case_values[t.case_begin + c - 1])),
					    builder_.getInt32(c), edge);
				std::vector<llvm::Value*> taken;
				for (uint32_t e = 0; e < t.edge_count; ++e)
					taken.push_back(builder_.CreateICmpEQ(edge, builder_.getInt32(e)));
				copy_along(taken);
				next = builder_.getInt32(Forward(edges[0].block));
				for (uint32_t e = 1; e < t.edge_count; ++e)
					next = builder_.CreateSelect(taken[e], builder_.getInt32(Forward(edges[e].block)), next);
				break;
			}
			}
			tag(builder_.CreateStore(builder_.CreateSelect(on, next, pc), pc_at));
		}
		for (uint32_t reg : order) {
			llvm::Value* at = address(reg);
			llvm::Value* old = tag(builder_.CreateLoad(i32_, at));
			tag(builder_.CreateStore(builder_.CreateSelect(on, values[reg], old), at));
		}

		llvm::Value* k_next = builder_.CreateAdd(k, builder_.getInt64(1));
		k->addIncoming(k_next, builder_.GetInsertBlock());
		llvm::BranchInst* back =
		    builder_.CreateCondBr(builder_.CreateICmpEQ(k_next, builder_.getInt64(shader::kSegmentLanes)), after, body);
		back->setMetadata(llvm::LLVMContext::MD_loop, ParallelLoop(context_, group));
		builder_.SetInsertPoint(after);
	}

	llvm::Function* OpFunction(Op op) { return AluFunction(module_, op); }

	llvm::Module& module_;
	llvm::LLVMContext& context_;
	const Program& program_;
	const Engine& engine_;
	llvm::Type *i32_, *i64_, *ptr_;
	llvm::IRBuilder<> builder_;
	std::unordered_map<uint32_t, uint32_t> constants_;
	const bool parks_;  // the program has barriers (see the class comment)
	std::unordered_set<uint32_t> barrier_blocks_;
	std::vector<uint32_t> live_at_barriers_;  // registers saved and restored around a barrier
	uint32_t mask_pc_ = 0;                    // the number of the piece being emitted
	bool converged_ = false;                  // ... for a vector whose lanes all run it
	llvm::Function* function_ = nullptr;
	llvm::Value *registers_ = nullptr, *stride_ = nullptr, *private_ = nullptr, *lanes_ = nullptr;
	llvm::Value *pcs_ = nullptr, *dummy_ = nullptr, *locals_ = nullptr;
	std::map<uint32_t, uint32_t> local_index_;  // register -> its slot in locals_
	llvm::PHINode* first_ = nullptr;
	std::unordered_map<uint32_t, llvm::Value*> span_data_, span_size_;
};

// The machine code of one program, a JITDylib of its own (its symbols have
// the same names in every program: the object files in the caches are the
// same whichever process made them), freed when the last CompiledProgram
// holding it goes.
struct Code {
	llvm::orc::JITDylib* dylib = nullptr;
	~Code() {
		Engine& engine = GetEngine();
		std::lock_guard lock(engine.mutex);
		if (llvm::Error error = engine.lljit->getExecutionSession().removeJITDylib(*dylib))
			llvm::consumeError(std::move(error));
	}
};

// The key of a program's machine code in the caches: everything that
// decides it. The program bytes end with their own digest; hashing them
// all is cheap next to a compile (microseconds).
CodeKey KeyOf(const Program& program, const Engine& engine) {
	Sha256 hash;
	auto text = [&](const std::string& value) {
		hash.UpdateU32(uint32_t(value.size()));
		hash.Update(value.data(), value.size());
	};
	text("tessera jit object 1");
	const std::vector<uint8_t>& build = runtime::OwnBuildId();
	hash.UpdateU32(uint32_t(build.size()));
	hash.Update(build.data(), build.size());
	text(LLVM_VERSION_STRING);
	text(engine.cpu);
	text(engine.features);
	text(engine.prefer_vector_width);
	std::vector<uint8_t> bytes = shader::SerializeProgram(program);
	hash.UpdateU32(uint32_t(bytes.size()));
	hash.Update(bytes);
	return hash.Finish();
}

// Symbol names: tessera_program for a whole program, tessera_segment<k>
// for segment k. (Appended piece by piece: GCC 12 warns, wrongly, about
// "literal" + string.)
std::string SymbolName(std::optional<size_t> segment) {
	if (!segment) return "tessera_program";
	std::string name("tessera_segment");
	name += std::to_string(*segment);
	return name;
}

// A name of its own for each program's JITDylib (and its IR dump).
std::string DylibName(uint64_t id) {
	std::string name("p");
	name += std::to_string(id);
	return name;
}

void Optimize(llvm::Module& module, llvm::TargetMachine& target) {
	llvm::LoopAnalysisManager loops;
	llvm::FunctionAnalysisManager functions;
	llvm::CGSCCAnalysisManager cgscc;
	llvm::ModuleAnalysisManager modules;
	llvm::PassBuilder passes(&target);
	passes.registerModuleAnalyses(modules);
	passes.registerCGSCCAnalyses(cgscc);
	passes.registerFunctionAnalyses(functions);
	passes.registerLoopAnalyses(loops);
	passes.crossRegisterProxies(loops, functions, cgscc, modules);
	passes.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(module, modules);
}

}  // namespace

namespace {
std::atomic<uint64_t> invalid_ir_count{0};
}  // namespace

uint64_t InvalidIrCount() { return invalid_ir_count.load(std::memory_order_relaxed); }

namespace {

struct BuildTimes {
	double ir_ms = 0, optimize_ms = 0, codegen_ms = 0;
};

double MsBetween(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
	return std::chrono::duration<double, std::milli>(to - from).count();
}

// The program (or its segments) as LLVM IR, optimized, then as an object
// file for the running CPU. Under the engine's lock.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> BuildObject(const Program& program, const CompiledProgram& compiled,
                                                                const std::vector<std::string>& names, Engine& engine,
                                                                BuildTimes& times) {
	auto start = std::chrono::steady_clock::now();
	auto context = std::make_unique<llvm::LLVMContext>();
	// LLVM's remarks and warnings (a loop it did not vectorize) are not the
	// user's business; errors come back through the calls below.
	context->setDiagnosticHandlerCallBack([](const llvm::DiagnosticInfo*, void*) {});
	auto module = std::make_unique<llvm::Module>("tessera_program", *context);
	module->setDataLayout(engine.lljit->getDataLayout());
	module->setTargetTriple(engine.target->getTargetTriple().str());
	if (compiled.segments.empty()) {
		ProgramBuilder(*module, program, engine).Build(names.front());
	} else {
		SegmentBuilder builder(*module, program, engine);
		for (size_t s = 0; s < compiled.segments.size(); ++s)
			builder.Build(names[s], compiled.segments[s].inst_begin, compiled.segments[s].inst_end);
	}

	llvm::StringRef bitcode(reinterpret_cast<const char*>(kTesseraAluBitcode), kTesseraAluBitcodeSize);
	auto table = llvm::parseBitcodeFile(llvm::MemoryBufferRef(bitcode, "alu_lanes"), *context);
	if (!table) return table.takeError();
	(*table)->setDataLayout(module->getDataLayout());
	(*table)->setTargetTriple(module->getTargetTriple());
	if (llvm::Linker::linkModules(*module, std::move(*table), llvm::Linker::Flags::LinkOnlyNeeded))
		return llvm::createStringError("linking the ALU table failed");
	for (llvm::Function& function : *module) {
		if (function.isDeclaration() || !function.getName().starts_with("tessera_alu_")) continue;
		function.setLinkage(llvm::GlobalValue::InternalLinkage);
		function.removeFnAttr(llvm::Attribute::NoInline);
		function.addFnAttr(llvm::Attribute::AlwaysInline);
	}
	std::string verify;
	llvm::raw_string_ostream verify_stream(verify);
	if (llvm::verifyModule(*module, &verify_stream)) {
		invalid_ir_count.fetch_add(1, std::memory_order_relaxed);
		return llvm::createStringError("invalid LLVM IR: " + verify);
	}
	auto optimize_start = std::chrono::steady_clock::now();
	Optimize(*module, *engine.target);
	// TESSERA_JIT_DUMP=<folder>: each program's optimized LLVM IR, p<N>.ll.
	static const char* dump = std::getenv("TESSERA_JIT_DUMP");
	if (dump && *dump) {
		std::error_code error;
		std::string path(dump);
		path += "/", path += DylibName(engine.next_id), path += ".ll";
		llvm::raw_fd_ostream out(path, error);
		if (!error) module->print(out, nullptr);
	}
	auto codegen_start = std::chrono::steady_clock::now();
	auto object = llvm::orc::SimpleCompiler(*engine.target)(*module);
	auto end = std::chrono::steady_clock::now();
	times = {MsBetween(start, optimize_start), MsBetween(optimize_start, codegen_start), MsBetween(codegen_start, end)};
	return object;
}

// The segments of a program not compiled whole: maximal runs of ALU
// instructions per block.
void FindSegments(const Program& program, CompiledProgram& compiled) {
	compiled.block_first.reserve(program.blocks.size() + 1);
	for (const shader::Block& block : program.blocks) {
		compiled.block_first.push_back(static_cast<uint32_t>(compiled.segments.size()));
		uint32_t end = block.inst_begin + block.inst_count;
		for (uint32_t i = block.inst_begin; i < end;) {
			if (program.insts[i].op >= Op::kAluCount) {
				++i;
				continue;
			}
			uint32_t run_end = i;
			while (run_end < end && program.insts[run_end].op < Op::kAluCount) ++run_end;
			if (run_end - i >= kMinSegmentLength) compiled.segments.push_back({i, run_end, nullptr});
			i = run_end;
		}
	}
	compiled.block_first.push_back(static_cast<uint32_t>(compiled.segments.size()));
}

// Links an object file into a JITDylib of its own and points `compiled` at
// its functions; the error, or an empty string.
std::string Link(std::unique_ptr<llvm::MemoryBuffer> object, const std::vector<std::string>& names, bool whole,
                 Engine& engine, CompiledProgram& compiled) {
	auto dylib = engine.lljit->createJITDylib(DylibName(engine.next_id++));
	if (!dylib) return llvm::toString(dylib.takeError());
	auto code = std::make_shared<Code>();
	code->dylib = &*dylib;
	if (llvm::Error error = engine.lljit->addObjectFile(*dylib, std::move(object)))
		return llvm::toString(std::move(error));
	for (size_t s = 0; s < names.size(); ++s) {
		auto symbol = engine.lljit->lookup(*dylib, names[s]);
		if (!symbol) return llvm::toString(symbol.takeError());
		if (whole)
			compiled.program = symbol->toPtr<shader::ProgramFunction>();
		else
			compiled.segments[s].function = symbol->toPtr<shader::SegmentFunction>();
	}
	compiled.code = std::move(code);
	return {};
}

// CompileProgram, or with compile false only what the caches have.
std::shared_ptr<const CompiledProgram> Obtain(const Program& program, bool compile) {
	Engine& engine = GetEngine();
	if (!engine.error.empty()) return nullptr;
	auto start = std::chrono::steady_clock::now();

	auto compiled = std::make_shared<CompiledProgram>();
	const bool whole = CanCompileWhole(program);
	if (!whole) {
		FindSegments(program, *compiled);
		if (compiled->segments.empty()) return compiled;
	}
	std::vector<std::string> names;
	if (whole) names.push_back(SymbolName(std::nullopt));
	for (size_t s = 0; s < compiled->segments.size(); ++s) names.push_back(SymbolName(s));
	const CodeKey key = KeyOf(program, engine);
	const CodeKey file = ProgramFileKey(program);

	std::lock_guard lock(engine.mutex);
	if (auto found = engine.memory.Find(key)) {
		++engine.stats.memory_hits;
		return found;
	}
	auto fail = [&](const std::string& what) -> std::shared_ptr<const CompiledProgram> {
		TESSERA_LOG(Warn, "jit: program not compiled, it stays interpreted: %s", what.c_str());
		return nullptr;
	};
	const char* what = whole ? "a whole program" : "segments";
	if (auto bytes = engine.disk.Load(key, file)) {
		const uint64_t object_bytes = bytes->size();
		auto link_start = std::chrono::steady_clock::now();
		std::string error = Link(llvm::MemoryBuffer::getMemBufferCopy(
		                             llvm::StringRef(reinterpret_cast<const char*>(bytes->data()), bytes->size())),
		                         names, whole, engine, *compiled);
		if (error.empty()) {
			++engine.stats.disk_hits;
			auto end = std::chrono::steady_clock::now();
			compiled->compile_ms = MsBetween(start, end);
			TESSERA_LOG(Debug, "jit: %s of %zu instructions loaded from the disk cache in %.1f ms (link %.1f)", what,
			            program.insts.size(), compiled->compile_ms, MsBetween(link_start, end));
			engine.memory.Insert(key, compiled, object_bytes);
			return compiled;
		}
		// A file of this key whose digest checks out and yet does not link:
		// compiled again (and stored again) below.
		TESSERA_LOG(Warn, "jit: code from %s does not link, compiled again: %s", engine.disk.PathOf(file).c_str(),
		            error.c_str());
		compiled->code.reset();
	}
	if (!compile) return nullptr;
	BuildTimes times;
	auto object = BuildObject(program, *compiled, names, engine, times);
	if (!object) return fail(llvm::toString(object.takeError()));
	++engine.stats.compiles;
	const uint64_t object_bytes = (*object)->getBufferSize();
	auto stored = std::span(reinterpret_cast<const uint8_t*>((*object)->getBufferStart()), object_bytes);
	if (engine.disk.Store(key, file, stored)) ++engine.stats.disk_stores;
	auto link_start = std::chrono::steady_clock::now();
	if (std::string error = Link(std::move(*object), names, whole, engine, *compiled); !error.empty())
		return fail(error);
	auto end = std::chrono::steady_clock::now();
	compiled->compile_ms = MsBetween(start, end);
	TESSERA_LOG(
	    Debug,
	    "jit: %s of %zu instructions compiled in %.1f ms (IR %.1f, optimizer %.1f, machine code %.1f, link %.1f)", what,
	    program.insts.size(), compiled->compile_ms, times.ir_ms, times.optimize_ms, times.codegen_ms,
	    MsBetween(link_start, end));
	engine.memory.Insert(key, compiled, object_bytes);
	return compiled;
}

}  // namespace

std::shared_ptr<const CompiledProgram> CompileProgram(const Program& program) { return Obtain(program, true); }

std::shared_ptr<const CompiledProgram> CachedProgram(const Program& program) { return Obtain(program, false); }

CacheStats GetCacheStats() {
	Engine& engine = GetEngine();
	std::lock_guard lock(engine.mutex);
	return engine.stats;
}

void ResetCaches(const DiskCache& disk) {
	Engine& engine = GetEngine();
	std::lock_guard lock(engine.mutex);
	engine.memory.Clear();
	engine.disk = disk;
}

}  // namespace tessera::jit

extern "C" __attribute__((visibility("default"))) const tessera::jit::Interface* tessera_jit_interface() {
	static const tessera::jit::Interface interface = [] {
		tessera::jit::Interface entry;
		entry.compile = &tessera::jit::CompileProgram;
		entry.cached = &tessera::jit::CachedProgram;
		return entry;
	}();
	return &interface;
}
