#include "runtime/build_id.h"

#include <elf.h>
#include <link.h>

#include <cstring>

namespace tessera::runtime {

namespace {

struct Search {
	uintptr_t address;  // an address inside the binary we look for
	std::vector<uint8_t> id;
};

// ELF notes: a header (name size, descriptor size, type), the name and the
// descriptor, each padded to 4 bytes (ELF gABI, "Note Section").
void FindBuildIdNote(const uint8_t* notes, size_t size, std::vector<uint8_t>* id) {
	size_t at = 0;
	while (at + sizeof(ElfW(Nhdr)) <= size) {
		ElfW(Nhdr) header;
		std::memcpy(&header, notes + at, sizeof header);
		const size_t name_at = at + sizeof header;
		const size_t desc_at = name_at + ((header.n_namesz + 3u) & ~size_t(3));
		const size_t next = desc_at + ((header.n_descsz + 3u) & ~size_t(3));
		if (next > size || desc_at > size) return;
		if (header.n_type == NT_GNU_BUILD_ID && header.n_namesz == 4 && std::memcmp(notes + name_at, "GNU", 4) == 0) {
			id->assign(notes + desc_at, notes + desc_at + header.n_descsz);
			return;
		}
		at = next;
	}
}

int VisitObject(dl_phdr_info* info, size_t, void* data) {
	auto* search = static_cast<Search*>(data);
	bool contains = false;
	for (ElfW(Half) i = 0; i < info->dlpi_phnum && !contains; ++i) {
		const ElfW(Phdr)& p = info->dlpi_phdr[i];
		const uintptr_t start = info->dlpi_addr + p.p_vaddr;
		contains = p.p_type == PT_LOAD && search->address >= start && search->address < start + p.p_memsz;
	}
	if (!contains) return 0;
	for (ElfW(Half) i = 0; i < info->dlpi_phnum && search->id.empty(); ++i) {
		const ElfW(Phdr)& p = info->dlpi_phdr[i];
		if (p.p_type == PT_NOTE)
			FindBuildIdNote(reinterpret_cast<const uint8_t*>(info->dlpi_addr + p.p_vaddr), p.p_memsz, &search->id);
	}
	return 1;  // found the binary: stop
}

}  // namespace

const std::vector<uint8_t>& OwnBuildId() {
	static const std::vector<uint8_t> id = [] {
		Search search{reinterpret_cast<uintptr_t>(&VisitObject), {}};
		dl_iterate_phdr(VisitObject, &search);
		return search.id;
	}();
	return id;
}

}  // namespace tessera::runtime
