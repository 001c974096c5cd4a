// When a program gets compiled (compiled.h): TESSERA_JIT=off keeps
// everything interpreted; sync compiles a program before its first run
// (tests and benchmarks); async, the default, interprets a program until
// it has cost about what compiling it would, then compiles it on a
// background thread at a lower priority, so pipeline creation and first
// use never wait for LLVM. The compiled code is taken at the start of a
// lane group's run, never in the middle of one.
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <thread>

#include "jit/code_cache.h"
#include "runtime/log.h"
#include "shader/compiled.h"
#include "shader/ir.h"
#include "shader/jit_module.h"

namespace tessera::shader {
namespace {

// When a program is worth compiling: once the interpreter has spent on it
// about what LLVM would spend compiling it (here about 10 ms plus 0.4 ms an
// instruction), so that a program that runs little (a test's one small
// draw, a clear) never pays for LLVM, and one that runs much pays at most
// twice. The interpreter does roughly a billion lane-instructions a second
// on one core of this kind of machine.
constexpr uint64_t kLaneInstructionsPerMs = 1'000'000;
// What loading the JIT module and libLLVM costs a process (about 50 ms),
// as interpreted work: a program asks the disk cache for its code, with the
// JIT not loaded yet, once it has run this much.
constexpr uint64_t kProbeWork = 50 * kLaneInstructionsPerMs;
uint64_t CompileThreshold(const Program& program) {
	const uint64_t compile_ms = 10 + program.insts.size() * 2 / 5;
	return compile_ms * kLaneInstructionsPerMs;
}

// Whether the disk cache the JIT would use has a file for this program
// (of this build or another): only then is the JIT loaded to look.
bool DiskMayHold(const Program& program) {
	static const jit::DiskCache disk = jit::DiskCache::FromEnvironment();
	return disk.enabled() && disk.Holds(jit::ProgramFileKey(program));
}

// jit::CompileProgram (through the JIT module, loaded at the first call:
// jit_module.h), or nullptr (the program stays interpreted) if it fails in
// any way, an allocation included: never an exception into a draw or the
// compiler thread.
// With cached_only, jit::CachedProgram: no compile, only what the caches
// hold.
std::shared_ptr<const CompiledProgram> Compile(const Program& program, bool cached_only = false) {
	try {
		const jit::Interface* jit = JitModule();
		if (!jit) return nullptr;
		return cached_only ? jit->cached(program) : jit->compile(program);
	} catch (const std::exception& error) {
		TESSERA_LOG(Warn, "jit: program not compiled, it stays interpreted: %s", error.what());
		return nullptr;
	}
}

void Install(JitState& state, std::shared_ptr<const CompiledProgram> compiled) {
	std::lock_guard lock(state.mutex);
	if (state.owned) return;
	state.owned = std::move(compiled);
	state.compiled.store(state.owned.get(), std::memory_order_release);
}

// One background thread compiles queued programs, oldest first.
//
// A compile must not outlive the process's exit handlers that LLVM
// registers while compiling: LLVM 19 keeps tables in function-local statics
// (SelectionDAG's value types among them), first built during a program's
// code generation and so destroyed by exit() before any handler registered
// earlier runs, this object's destructor included. A compile still running
// then reads freed tables (a crash, or "LLVM ERROR" at exit). So once the
// thread's first compile has built them, it registers Stop with atexit,
// which runs before their destructors and waits for the compile in hand
// (and so it does once it has loaded the JIT module, whose libLLVM
// registers its static objects' destructors as it loads);
// and DestroyDevice waits for the compile in hand (WaitForRunningCompile),
// so a program that destroys its device before exiting never exits during one.
class BackgroundCompiler;
BackgroundCompiler& Compiler();
std::atomic<bool> compiler_started{false};  // Compiler() made its thread

class BackgroundCompiler {
public:
	~BackgroundCompiler() { Stop(); }

	void Stop() {
		{
			std::lock_guard lock(mutex_);
			stop_ = true;
		}
		wake_.notify_all();
		if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
	}

	void Enqueue(const Program& program, bool cached_only) {
		Job job{program.jit.weak(), std::make_shared<Program>(program), cached_only};
		std::lock_guard lock(mutex_);
		if (stop_) return;
		jobs_.push_back(std::move(job));
		if (!thread_.joinable()) {
			thread_ = std::thread([this] { Run(); });
			compiler_started.store(true, std::memory_order_release);
		}
		wake_.notify_one();
	}

	void WaitIdle() {
		std::unique_lock lock(mutex_);
		idle_.wait(lock, [&] { return jobs_.empty() && started_ == finished_; });
	}

	// Waits for the compile running now, if any (not for the queued ones).
	void WaitForRunning() {
		std::unique_lock lock(mutex_);
		const uint64_t running = started_;
		idle_.wait(lock, [&] { return finished_ >= running; });
	}

private:
	struct Job {
		std::weak_ptr<JitState> state;
		std::shared_ptr<const Program> program;  // a copy: the original may go first
		bool cached_only = false;                // take the code only if a cache has it
	};

	void Run() {
		// Below the threads that draw, but not starved by them: at nice 19 a
		// compile waited behind a renderer that kept both cores busy for
		// seconds (the Mandelbrot benchmark never got its code); at nice 5
		// it takes about a quarter of a busy core. What it may cost overall
		// is bounded by the threshold above.
		setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 5);
		std::unique_lock lock(mutex_);
		for (;;) {
			wake_.wait(lock, [&] { return stop_ || !jobs_.empty(); });
			if (stop_) return;
			Job job = std::move(jobs_.front());
			jobs_.pop_front();
			++started_;
			lock.unlock();
			if (!job.state.expired()) {
				// A cache lookup loads the JIT only if the disk may hold the
				// program's code. The JIT module is loaded here, its libLLVM's
				// static objects with it: Stop is registered after them (it
				// then runs first at exit), before the compile that may use
				// them.
				const bool wants_jit = !job.cached_only || JitModuleLoaded() || DiskMayHold(*job.program);
				if (wants_jit && !hooked_load_ && JitModule()) {
					hooked_load_ = true;
					std::atexit([] { Compiler().Stop(); });
				}
				std::shared_ptr<const CompiledProgram> compiled =
				    wants_jit ? Compile(*job.program, job.cached_only) : nullptr;
				if (std::shared_ptr<JitState> state = job.state.lock()) {
					if (compiled) Install(*state, std::move(compiled));
				}
				// And after the first compile, for the tables code generation
				// builds in function-local statics.
				if (!hooked_compile_ && !job.cached_only && JitModuleLoaded()) {
					hooked_compile_ = true;
					std::atexit([] { Compiler().Stop(); });
				}
			}
			job = {};
			lock.lock();
			++finished_;
			idle_.notify_all();
		}
	}

	std::mutex mutex_;
	std::condition_variable wake_, idle_;
	std::deque<Job> jobs_;
	bool stop_ = false;
	uint64_t started_ = 0, finished_ = 0;                // jobs taken and done: one runs while they differ
	bool hooked_load_ = false, hooked_compile_ = false;  // Stop registered with atexit after those
	std::thread thread_;
};

BackgroundCompiler& Compiler() {
	static BackgroundCompiler compiler;
	return compiler;
}

}  // namespace

namespace {
std::atomic<int> forced_mode{-1};  // SetJitMode's, or -1
}  // namespace

JitMode CurrentJitMode() {
	if (int forced = forced_mode.load(std::memory_order_relaxed); forced >= 0) return static_cast<JitMode>(forced);
	static const JitMode mode = [] {
		const char* value = std::getenv("TESSERA_JIT");
		if (!value || !*value || std::strcmp(value, "async") == 0) return JitMode::kAsync;
		if (std::strcmp(value, "off") == 0) return JitMode::kOff;
		if (std::strcmp(value, "sync") == 0) return JitMode::kSync;
		TESSERA_LOG(Warn, "TESSERA_JIT=%s is not off, async or sync; using async", value);
		return JitMode::kAsync;
	}();
	return mode;
}

const CompiledProgram* CompiledCodeFor(const Program& program) {
	JitState& state = program.jit.state();
	if (const CompiledProgram* compiled = state.compiled.load(std::memory_order_acquire)) return compiled;
	switch (CurrentJitMode()) {
	case JitMode::kOff: return nullptr;
	case JitMode::kSync: {
		// Compiled before the first run: a thread that comes while another
		// compiles waits for its result.
		std::lock_guard lock(state.mutex);
		if (const CompiledProgram* compiled = state.compiled.load(std::memory_order_acquire)) return compiled;
		if (state.requested.exchange(true)) return nullptr;  // it failed: stays interpreted
		state.owned = Compile(program);
		state.compiled.store(state.owned.get(), std::memory_order_release);
		return state.owned.get();
	}
	case JitMode::kAsync:
		// Code a cache holds (an equal program compiled earlier in this
		// process, or in an earlier run: the disk cache) is taken at once,
		// hot or not, once the JIT is loaded: linking it costs about a
		// millisecond, on the background thread. A second CI run starts
		// with compiled code. Before that, loading the JIT (and libLLVM)
		// costs some 50 ms, which a program that runs a moment never repays:
		// NoteInterpretedWork asks the caches for it once it has run that
		// long (kProbeWork).
		if (JitModuleLoaded() && !state.probed.load(std::memory_order_relaxed) && !state.probed.exchange(true))
			Compiler().Enqueue(program, true);
		return nullptr;
	}
	return nullptr;
}

void NoteInterpretedWork(const Program& program, uint64_t lane_instructions) {
	if (CurrentJitMode() != JitMode::kAsync) return;
	JitState& state = program.jit.state();
	uint64_t work = state.work.fetch_add(lane_instructions, std::memory_order_relaxed) + lane_instructions;
	// The JIT not loaded yet: the caches are asked (which loads it only if
	// the disk has a file for the program: Compile) once the program has
	// cost about what loading it would.
	if (work >= kProbeWork && !state.probed.load(std::memory_order_relaxed) && !state.probed.exchange(true))
		Compiler().Enqueue(program, true);
	if (work >= CompileThreshold(program) && !state.requested.load(std::memory_order_relaxed) &&
	    !state.requested.exchange(true))
		Compiler().Enqueue(program, false);
}

void SetJitMode(std::optional<JitMode> mode) {
	forced_mode.store(mode ? static_cast<int>(*mode) : -1, std::memory_order_relaxed);
}

void WaitForBackgroundCompiles() { Compiler().WaitIdle(); }

void WaitForRunningCompile() { Compiler().WaitForRunning(); }

// The atexit hooks above run after the destructors of LLVM's static
// objects that are built later, in the middle of a compile: a process that
// exits while its first compile runs (a benchmark that keeps its device to
// the end, with the JIT module loaded only moments before) would destroy
// them under it. The destructors of the exiting thread's thread_local
// objects complete before any static object's destructor begins (C++
// [basic.start.term]), so the main thread holds one that stops the compiler.
// (Should the main thread end alone, with pthread_exit, while others draw,
// programs stay interpreted from then on.)
void StopCompilerAtMainThreadExit() {
	struct Guard {
		~Guard() {
			if (compiler_started.load(std::memory_order_acquire)) Compiler().Stop();
		}
	};
	if (static_cast<pid_t>(syscall(SYS_gettid)) != getpid()) return;
	static thread_local Guard guard;
	(void)guard;
}

}  // namespace tessera::shader
