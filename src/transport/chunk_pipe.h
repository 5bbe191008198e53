// A bounded queue of byte chunks from one writer thread (an HTTP transfer)
// to one reader thread (a decoder), so a response is decoded while it
// arrives and never held whole: at most `max_chunks` chunks wait, and a full
// pipe holds the writer (and with it the connection) back.
#ifndef PROPSCALER_TRANSPORT_CHUNK_PIPE_H_
#define PROPSCALER_TRANSPORT_CHUNK_PIPE_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>

namespace propscaler::kube {

class ChunkPipe {
 public:
  explicit ChunkPipe(size_t max_chunks = 8) : max_chunks_(max_chunks) {}

  // Writer: the body follows (the answer was a 200).
  void Open();
  // Writer: queues a copy of `chunk`, waiting while the pipe is full; false
  // when the reader has gone, so the transfer should stop.
  bool Push(std::string_view chunk);
  // Writer: no more chunks.
  void CloseWriter();

  // Reader: waits until the writer opened or closed; true when it opened.
  bool WaitOpen();
  // Reader: the next chunk, valid until the next call; false at the end.
  bool Next(std::string_view* chunk);
  // Reader: stops reading; a waiting or later Push returns false.
  void CloseReader();

 private:
  const size_t max_chunks_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> queue_;
  std::string current_;  // the chunk the reader holds
  bool opened_ = false;
  bool writer_closed_ = false;
  bool reader_closed_ = false;
};

}  // namespace propscaler::kube

#endif  // PROPSCALER_TRANSPORT_CHUNK_PIPE_H_
