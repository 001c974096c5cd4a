#include "shader/dispatch.h"

#include "run_shader.h"
#include "runtime/thread_pool.h"

using namespace tessera;

TEST_CASE("a dispatch over the thread pool gives the sequential result", "[shader][dispatch]") {
	shader::Program program = test::CompileShader("ids");
	const uint32_t gx = 7, gy = 3, gz = 2, sx = 21, sy = 6;
	runtime::ThreadPool pool(3);
	// Lane groups of 4 lanes cut the 6-invocation workgroups in the middle.
	for (uint32_t width : {0u, 4u})
		for (runtime::ThreadPool* p : {static_cast<runtime::ThreadPool*>(nullptr), &pool}) {
			std::vector<uint32_t> out(sx * sy * gz * 8, 0xffffffffu);
			shader::BufferView view{out.data(), out.size() * 4};
			shader::Resources resources{{&view, 1}};
			shader::DispatchSize size;
			size.count[0] = gx, size.count[1] = gy, size.count[2] = gz;
			shader::RunOptions options;
			options.lane_group_width = width;
			REQUIRE(shader::RunDispatch(program, resources, size, p, options) == shader::RunStatus::kSuccess);
			for (uint32_t z = 0; z < gz; ++z)
				for (uint32_t y = 0; y < sy; ++y)
					for (uint32_t x = 0; x < sx; ++x) {
						const uint32_t* o = &out[((z * sy + y) * sx + x) * 8];
						REQUIRE(o[0] == x);
						REQUIRE(o[1] == y);
						REQUIRE(o[2] == z);
						REQUIRE(o[3] == x % 3 + 3 * (y % 2));  // LocalInvocationIndex
						REQUIRE(o[4] == x / 3);
						REQUIRE(o[5] == y / 2);
						REQUIRE(o[6] == z);
						REQUIRE(o[7] == x % 3 + 10 * (y % 2));
					}
		}
}

TEST_CASE("a dispatch base offsets WorkgroupId but not NumWorkgroups", "[shader][dispatch]") {
	shader::Program program = test::CompileShader("ids");
	std::vector<uint32_t> out(2048, 0xffffffffu);
	shader::BufferView view{out.data(), out.size() * 4};
	shader::Resources resources{{&view, 1}};
	shader::DispatchSize size;
	size.base[0] = 2, size.count[0] = 2;  // groups 2 and 3 of a 2-wide grid: writes land past x = 6
	REQUIRE(shader::RunDispatch(program, resources, size, nullptr) == shader::RunStatus::kSuccess);
	// The shader's flat index uses NumWorkgroups * WorkgroupSize = 6 columns.
	for (uint32_t y = 0; y < 2; ++y)
		for (uint32_t x = 6; x < 12; ++x) {
			const uint32_t* o = &out[(y * 6 + x) * 8];
			REQUIRE(o[0] == x);
			REQUIRE(o[4] == x / 3);
		}
}

TEST_CASE("a dispatch whose shader hangs reports device lost", "[shader][dispatch]") {
	shader::Program program = test::CompileShader("forever");
	std::vector<uint32_t> out(64);
	shader::BufferView view{out.data(), out.size() * 4};
	shader::Resources resources{{&view, 1}};
	shader::DispatchSize size;
	size.count[0] = 4;
	shader::RunOptions options;
	options.max_block_steps = 1000;
	runtime::ThreadPool pool(2);
	REQUIRE(shader::RunDispatch(program, resources, size, &pool, options) == shader::RunStatus::kDeviceLost);
}
