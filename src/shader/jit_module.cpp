#include "shader/jit_module.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>

#include <atomic>
#include <string>
#include <vector>

#include "runtime/log.h"

// Where a binary links the JIT's static library (its unit tests, the fuzz
// target), its tessera_jit_interface; else (the driver) null. Hidden: the
// static link decides it, no other object is searched at run time.
extern "C" __attribute__((weak, visibility("hidden"))) const tessera::jit::Interface* tessera_jit_interface();

namespace tessera::shader {
namespace {

constexpr const char* kModuleFile = "libtessera_jit.so";
std::atomic<bool> loaded{false};

// The interface, if the module is of this build's kind.
const jit::Interface* Accept(const jit::Interface* candidate, const std::string& where, std::string* errors) {
	const jit::Interface expected;
	if (candidate && candidate->version == expected.version && candidate->program_size == expected.program_size &&
	    candidate->compiled_size == expected.compiled_size &&
	    candidate->environment_size == expected.environment_size && candidate->compile && candidate->cached)
		return candidate;
	*errors += where + ": not this driver's build of the JIT; ";
	return nullptr;
}

std::string Folder(const std::string& path) {
	const size_t slash = path.rfind('/');
	return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

const jit::Interface* Load() {
	std::string errors;
	if (&tessera_jit_interface) return Accept(tessera_jit_interface(), "the JIT linked in", &errors);
	std::vector<std::string> candidates;
	if (const char* forced = std::getenv("TESSERA_JIT_MODULE"); forced && *forced) candidates.push_back(forced);
	Dl_info info{};
	char real[PATH_MAX];
	if (dladdr(reinterpret_cast<void*>(&JitModule), &info) && info.dli_fname && realpath(info.dli_fname, real)) {
		const std::string here = real;
		candidates.push_back(Folder(here) + "/" + kModuleFile);
#if defined(TESSERA_BUILD_DIR) && defined(TESSERA_BUILD_JIT_MODULE)
		// A binary of the build tree (a test or benchmark of its own): the
		// build's module.
		if (here.starts_with(std::string(TESSERA_BUILD_DIR) + "/")) candidates.push_back(TESSERA_BUILD_JIT_MODULE);
#endif
	}
	for (const std::string& path : candidates) {
		void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
		if (!handle) {
			const char* error = dlerror();
			errors += (error ? std::string(error) : path) + "; ";
			continue;
		}
		// (Never closed: compiled code and LLVM's exit handlers live in it.)
		auto entry = reinterpret_cast<jit::InterfaceFunction>(dlsym(handle, jit::kInterfaceSymbol));
		if (!entry) {
			errors += path + ": no " + jit::kInterfaceSymbol + "; ";
			continue;
		}
		if (const jit::Interface* jit = Accept(entry(), path, &errors)) return jit;
	}
	TESSERA_LOG(Warn, "jit: the compiled tier is not available, shaders stay interpreted: %s",
	            errors.empty() ? "no place to look for libtessera_jit.so" : errors.c_str());
	return nullptr;
}

}  // namespace

const jit::Interface* JitModule() {
	static const jit::Interface* const jit = [] {
		const jit::Interface* result = Load();
		loaded.store(result != nullptr, std::memory_order_release);
		return result;
	}();
	return jit;
}

bool JitModuleLoaded() { return loaded.load(std::memory_order_acquire); }

}  // namespace tessera::shader
