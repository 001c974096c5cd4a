// The driver's log. Off unless TESSERA_LOG names a level
// (error, warn, info, debug); lines go to stderr, or to TESSERA_LOG_FILE.
#pragma once

#include <cstdarg>

namespace tessera::runtime {

enum class LogLevel { Off = 0, Error, Warn, Info, Debug };

LogLevel CurrentLogLevel();
inline bool LogEnabled(LogLevel level) { return level <= CurrentLogLevel(); }
void Log(LogLevel level, const char* format, ...) __attribute__((format(printf, 2, 3)));
void LogV(LogLevel level, const char* format, va_list args);

}  // namespace tessera::runtime

#define TESSERA_LOG(level, ...)                                                        \
	do {                                                                               \
		if (::tessera::runtime::LogEnabled(::tessera::runtime::LogLevel::level))       \
			::tessera::runtime::Log(::tessera::runtime::LogLevel::level, __VA_ARGS__); \
	} while (0)
