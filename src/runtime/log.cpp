#include "runtime/log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace tessera::runtime {

namespace {

struct LogConfig {
	LogLevel level = LogLevel::Off;
	FILE* out = stderr;

	LogConfig() {
		const char* value = std::getenv("TESSERA_LOG");
		if (!value) return;
		static constexpr struct {
			const char* name;
			LogLevel level;
		} kNames[] = {{"error", LogLevel::Error}, {"warn", LogLevel::Warn}, {"info", LogLevel::Info},
		              {"debug", LogLevel::Debug}, {"1", LogLevel::Info},    {"all", LogLevel::Debug}};
		for (const auto& entry : kNames)
			if (std::strcmp(value, entry.name) == 0) level = entry.level;
		if (const char* path = std::getenv("TESSERA_LOG_FILE"))
			if (FILE* f = std::fopen(path, "a")) out = f;
	}
};

const LogConfig& Config() {
	static const LogConfig config;
	return config;
}

}  // namespace

LogLevel CurrentLogLevel() { return Config().level; }

void LogV(LogLevel level, const char* format, va_list args) {
	static std::mutex mutex;
	static constexpr const char* kTags[] = {"", "error", "warn", "info", "debug"};
	char line[1024];
	std::vsnprintf(line, sizeof line, format, args);
	std::lock_guard lock(mutex);
	std::fprintf(Config().out, "tessera %s: %s\n", kTags[static_cast<int>(level)], line);
	std::fflush(Config().out);
}

void Log(LogLevel level, const char* format, ...) {
	va_list args;
	va_start(args, format);
	LogV(level, format, args);
	va_end(args);
}

}  // namespace tessera::runtime
