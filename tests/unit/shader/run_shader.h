// Test helpers: load a compiled shader from the corpus, compile it, and run
// a dispatch over host buffers.
#pragma once

#include <catch2/catch.hpp>

#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "shader/interpreter.h"
#include "spirv/compile.h"

namespace tessera::test {

inline std::vector<uint32_t> LoadSpirv(const std::string& name) {
	// (Appended in place: GCC 12 warns, wrongly, of the chained operator+ here.)
	std::string path = TESSERA_SHADER_DIR;
	path.append("/").append(name).append(".spv");
	std::ifstream file(path, std::ios::binary);
	REQUIRE(file.good());
	std::vector<char> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
	std::vector<uint32_t> words(bytes.size() / 4);
	memcpy(words.data(), bytes.data(), words.size() * 4);
	return words;
}

inline shader::Program CompileShader(const std::string& name, const spirv::Specialization& spec = {}) {
	auto result = spirv::Compile(LoadSpirv(name), spirv::Stage::kCompute, "main", spec);
	if (!result) FAIL(name << ": " << result.error().message);
	return std::move(result.value());
}

// Buffers by (set, binding); descriptor array elements by array_element.
struct Bindings {
	std::map<std::tuple<uint32_t, uint32_t, uint32_t>, shader::BufferView> buffers;
	std::vector<uint8_t> push_constants;

	template <class T>
	void Bind(uint32_t binding, std::vector<T>& data, uint32_t set = 0, uint32_t element = 0) {
		buffers[{set, binding, element}] = {data.data(), data.size() * sizeof(T)};
	}
	template <class T>
	void Push(const T& value) {
		push_constants.resize(sizeof(T));
		memcpy(push_constants.data(), &value, sizeof(T));
	}
};

inline shader::RunStatus Dispatch(const shader::Program& program, const Bindings& bindings, uint32_t x, uint32_t y = 1,
                                  uint32_t z = 1, const shader::RunOptions& options = {}) {
	std::vector<shader::BufferView> views;
	for (const shader::BindingSlot& slot : program.bindings) {
		auto it = bindings.buffers.find({slot.set, slot.binding, slot.array_element});
		views.push_back(it != bindings.buffers.end() ? it->second : shader::BufferView{});
	}
	shader::Resources resources{views, bindings.push_constants.data(),
	                            static_cast<uint32_t>(bindings.push_constants.size())};
	shader::Interpreter interpreter;
	shader::WorkgroupPosition position;
	position.count[0] = x, position.count[1] = y, position.count[2] = z;
	for (uint32_t k = 0; k < z; ++k)
		for (uint32_t j = 0; j < y; ++j) {
			position.id[0] = 0, position.id[1] = j, position.id[2] = k;
			shader::RunStatus status = interpreter.RunWorkgroups(program, resources, position, x, options);
			if (status != shader::RunStatus::kSuccess) return status;
		}
	return shader::RunStatus::kSuccess;
}

}  // namespace tessera::test
