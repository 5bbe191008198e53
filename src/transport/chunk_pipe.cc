#include "transport/chunk_pipe.h"

namespace propscaler::kube {

void ChunkPipe::Open() {
  std::lock_guard<std::mutex> lock(mutex_);
  opened_ = true;
  changed_.notify_all();
}

bool ChunkPipe::Push(std::string_view chunk) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(
      lock, [this] { return reader_closed_ || queue_.size() < max_chunks_; });
  if (reader_closed_) return false;
  queue_.emplace_back(chunk);
  changed_.notify_all();
  return true;
}

void ChunkPipe::CloseWriter() {
  std::lock_guard<std::mutex> lock(mutex_);
  writer_closed_ = true;
  changed_.notify_all();
}

bool ChunkPipe::WaitOpen() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return opened_ || writer_closed_; });
  return opened_;
}

bool ChunkPipe::Next(std::string_view* chunk) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return !queue_.empty() || writer_closed_; });
  if (queue_.empty()) return false;
  current_ = std::move(queue_.front());
  queue_.pop_front();
  changed_.notify_all();
  *chunk = current_;
  return true;
}

void ChunkPipe::CloseReader() {
  std::lock_guard<std::mutex> lock(mutex_);
  reader_closed_ = true;
  queue_.clear();
  changed_.notify_all();
}

}  // namespace propscaler::kube
