#include "runtime/byte_lru.h"

namespace tessera::runtime {

std::shared_ptr<const std::string> ByteLru::Find(const std::string& key) {
	std::lock_guard lock(mutex_);
	auto found = index_.find(key);
	if (found == index_.end()) return nullptr;
	order_.splice(order_.begin(), order_, found->second);
	return found->second->value;
}

void ByteLru::Insert(const std::string& key, std::string value) {
	if (key.size() + value.size() > capacity_) return;
	auto shared = std::make_shared<const std::string>(std::move(value));
	std::lock_guard lock(mutex_);
	if (auto found = index_.find(key); found != index_.end()) Erase(found->second);
	order_.push_front(Entry{key, std::move(shared)});
	try {
		index_.emplace(key, order_.begin());
	} catch (...) {
		order_.pop_front();
		throw;
	}
	bytes_ += order_.front().Bytes();
	while (bytes_ > capacity_) Erase(std::prev(order_.end()));
}

void ByteLru::Erase(std::list<Entry>::iterator it) {
	bytes_ -= it->Bytes();
	index_.erase(it->key);
	order_.erase(it);
}

size_t ByteLru::Bytes() const {
	std::lock_guard lock(mutex_);
	return bytes_;
}

size_t ByteLru::Count() const {
	std::lock_guard lock(mutex_);
	return order_.size();
}

}  // namespace tessera::runtime
