// The front end's use of SPIRV-Tools: validation, specialization and the
// optimization pipeline, then translation.
#include "spirv/compile.h"

#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>

#include <cstring>
#include <exception>
#include <new>
#include <unordered_map>

#include "spirv/newer_extensions.h"
#include "spirv/pre_optimization.h"
#include "spirv/static_use.h"
#include "spirv/translator.h"

namespace tessera::spirv {
namespace {

// Vulkan 1.3 accepts SPIR-V 1.0 to 1.6 (Vulkan 1.3 appendix A).
constexpr spv_target_env kTargetEnv = SPV_ENV_VULKAN_1_3;

std::string Diagnose(spvtools::SpirvTools& tools, std::span<const uint32_t> words, const ValidationRules& rules,
                     const char* what) {
	std::string message;
	tools.SetMessageConsumer([&](spv_message_level_t, const char*, const spv_position_t&, const char* text) {
		if (message.empty()) message = text;
	});
	spvtools::ValidatorOptions options;
	options.SetUniformBufferStandardLayout(rules.uniform_buffer_standard_layout);
	options.SetScalarBlockLayout(rules.scalar_block_layout);
	options.SetWorkgroupScalarBlockLayout(rules.workgroup_scalar_block_layout);
	std::vector<uint32_t> stripped;
	if (rules.sample_offsets) {
		// The validator sees the module without the Offset operands it
		// predates (pre_optimization.h); the translator reads the module.
		if (std::string bad = WithoutSampleOffsets(words, &stripped); !bad.empty())
			return std::string(what) + ": " + bad;
		words = stripped;
	}
	std::vector<uint32_t> sized;
	if (rules.uniform_unsized_arrays && WithSizedUniformArrays(words, &sized)) words = sized;
	// Without friendly names: the validator otherwise maps every id to a
	// printable name (from OpName, or made up) before it checks anything,
	// which took a fifth of its time on a small compute shader. Only a
	// module that fails needs them, for its message: it is checked again.
	options.SetFriendlyNames(false);
	if (tools.Validate(words.data(), words.size(), options)) return {};
	message.clear();
	options.SetFriendlyNames(true);
	if (tools.Validate(words.data(), words.size(), options)) return {};  // (cannot differ; kept valid if it did)
	return std::string(what) + ": " + (message.empty() ? "invalid SPIR-V" : message);
}

}  // namespace

std::string Validate(std::span<const uint32_t> words, const ValidationRules& rules) {
	spvtools::SpirvTools tools(kTargetEnv);
	if (words.size() < 5) return "invalid SPIR-V: shorter than a module header";
	return Diagnose(tools, words, rules, "invalid SPIR-V");
}

Expected<shader::Program> Compile(std::span<const uint32_t> words, Stage stage, std::string_view entry_point,
                                  const Specialization& specialization, const CompileOptions& compile_options) {
	try {
		if (!compile_options.validated) {
			std::string invalid = Validate(words, compile_options.rules);
			if (!invalid.empty()) return Error{invalid};
		}

		// Specialization: VkSpecializationMapEntry bytes become the SpecId's
		// default value, which is then frozen into a plain constant.
		std::unordered_map<uint32_t, std::vector<uint32_t>> spec_values;
		for (const SpecializationEntry& entry : specialization.entries) {
			if (entry.offset + uint64_t{entry.size} > specialization.data.size())
				return Error{"specialization entry outside the specialization data"};
			std::vector<uint32_t> bits((entry.size + 3) / 4, 0);
			memcpy(bits.data(), specialization.data.data() + entry.offset, entry.size);
			spec_values[entry.constant_id] = bits;
		}

		spvtools::OptimizerOptions options;
		options.set_run_validator(false);  // validated above
		std::vector<uint32_t> rewritten(words.begin(), words.end());
		ClearDontInline(rewritten);
		LoadHelperInvocationAsQuery(rewritten);
		if (std::string bad = CheckSpecConstantOpIndices(rewritten); !bad.empty()) return Error{bad};
		if (std::string bad = CheckExecutionModeIdOperands(rewritten); !bad.empty()) return Error{bad};
		if (HasSpecConstantQuantize(rewritten)) {
			// Freeze the spec constants first, so that the QuantizeToF16
			// folds are ours (FoldSpecConstantQuantize).
			spvtools::Optimizer freeze(kTargetEnv);
			if (!spec_values.empty()) freeze.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(spec_values));
			freeze.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
			std::vector<uint32_t> frozen;
			if (freeze.Run(rewritten.data(), rewritten.size(), &frozen, options)) {
				FoldSpecConstantQuantize(frozen);
				rewritten = std::move(frozen);
			}
		}
		// With the passes that fold constants (CCP, simplification), but where
		// their results cannot be trusted (HasNarrowBitcast).
		const bool fold = !HasNarrowBitcast(rewritten);
		std::string message;
		constexpr uint32_t kMaxScalarReplacement = 4096;  // elements of one composite
		spvtools::Optimizer optimizer(kTargetEnv);
		optimizer.SetMessageConsumer(
		    [&](spv_message_level_t level, const char*, const spv_position_t&, const char* text) {
			    if (level <= SPV_MSG_ERROR && message.empty()) message = text;
		    });
		// Decoration groups (OpGroupDecorate, OpGroupMemberDecorate) become
		// plain OpDecorate and OpMemberDecorate, the only forms the translator reads.
		optimizer.RegisterPass(spvtools::CreateFlattenDecorationPass());
		if (!spec_values.empty()) optimizer.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(spec_values));
		optimizer.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass())
		    .RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass())
		    .RegisterPass(spvtools::CreateUnifyConstantPass())
		    .RegisterPass(spvtools::CreateDeadBranchElimPass())
		    // The inliner will not inline a function that kills (OpKill,
		    // OpTerminateInvocation) into a continue construct: the kill
		    // would break the rule that the construct's back-edge block
		    // post-dominates the continue target (SPIR-V 1.6 §2.11). This
		    // pass moves each kill into a function of its own, so the rest
		    // inlines; a call to one that stays ends the invocation in the
		    // translator (ParseFunction).
		    .RegisterPass(spvtools::CreateWrapOpKillPass())
		    .RegisterPass(spvtools::CreateMergeReturnPass())
		    .RegisterPass(spvtools::CreateInlineExhaustivePass())
		    .RegisterPass(spvtools::CreateEliminateDeadFunctionsPass())
		    .RegisterPass(spvtools::CreatePrivateToLocalPass())
		    .RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass())
		    .RegisterPass(spvtools::CreateLocalSingleStoreElimPass())
		    // Bounded: a local array of 2^32 elements would become 2^32
		    // variables (a hang found by the fuzzer). Larger arrays stay in
		    // private memory, where the translator's size limits apply.
		    .RegisterPass(spvtools::CreateScalarReplacementPass(kMaxScalarReplacement))
		    .RegisterPass(spvtools::CreateSSARewritePass());
		if (fold) optimizer.RegisterPass(spvtools::CreateCCPPass()).RegisterPass(spvtools::CreateSimplificationPass());
		optimizer.RegisterPass(spvtools::CreateDeadBranchElimPass())
		    .RegisterPass(spvtools::CreateCopyPropagateArraysPass())
		    .RegisterPass(spvtools::CreateVectorDCEPass());
		if (!HasEmptyStruct(rewritten)) optimizer.RegisterPass(spvtools::CreateDeadInsertElimPass());
		optimizer.RegisterPass(spvtools::CreateRedundancyEliminationPass())
		    .RegisterPass(spvtools::CreateAggressiveDCEPass())
		    .RegisterPass(spvtools::CreateCFGCleanupPass());
		std::vector<uint32_t> optimized;
		if (!optimizer.Run(rewritten.data(), rewritten.size(), &optimized, options))
			return Error{"SPIR-V optimization failed: " + (message.empty() ? std::string("unknown error") : message)};

		shader::Program program;
		Translator translator(optimized, stage, entry_point, program);
		translator.Run();
		if (stage == Stage::kFragment) program.sample_shading = InterfaceRequestsSampleShading(words, entry_point);
		return program;
	} catch (const TranslateError& error) {
		return Error{error.message};
	} catch (const std::bad_alloc&) {
		return Error{"out of memory"};
	} catch (const std::exception& error) {
		// A module the translator's assumptions do not cover: reject it, never crash.
		return Error{std::string("unsupported SPIR-V module (") + error.what() + ")"};
	}
}

}  // namespace tessera::spirv
