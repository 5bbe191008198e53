// Lists decoded as they arrive: the node list's SAX decoding through a
// JsonChunkStream gives what decoding the whole body gives, however the
// bytes are cut; and a ChunkPipe hands chunks across threads in order,
// holding at most its capacity.
#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "apiserver/node_generator.h"
#include "apiserver/pod_generator.h"
#include "kube/wire/decode.h"
#include "kube/wire/json_chunk_stream.h"
#include "kube/wire/json_list_watch.h"
#include "kube/wire/pod_decode.h"
#include "transport/chunk_pipe.h"

namespace propscaler::kube {
namespace {

std::string NodeListJson(int nodes) {
  std::string body =
      R"({"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"77","continue":"next"},"items":[)";
  const std::vector<std::string> items = sim::GenerateNodes("n", nodes, 0);
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) body += ",";
    body += items[i];
  }
  return body + "]}";
}

// A stream over `body` cut into pieces of random sizes up to `max_piece`.
JsonChunkStream CutInto(const std::string& body, size_t max_piece,
                        uint32_t seed) {
  auto rest = std::make_shared<std::string_view>(body);
  auto random = std::make_shared<std::mt19937>(seed);
  return JsonChunkStream([=](std::string_view* chunk) {
    if (rest->empty()) return false;
    const size_t size = std::min<size_t>(
        rest->size(),
        std::uniform_int_distribution<size_t>(0, max_piece)(*random));
    *chunk = rest->substr(0, size);
    rest->remove_prefix(size);
    return true;
  });
}

TEST(StreamedListTest, AnyCutDecodesAsTheWholeBody) {
  const std::string body = NodeListJson(40);
  Result<ListPage<NodeInfo>> whole = DecodeNodeList(body);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  ASSERT_EQ(whole->items.size(), 40u);
  for (size_t max_piece : {1, 2, 7, 100, 4096, 1 << 20}) {
    JsonChunkStream stream = CutInto(body, max_piece, 7);
    Result<ListPage<NodeInfo>> streamed = DecodeNodeListStream(&stream);
    ASSERT_TRUE(streamed.ok()) << streamed.status().message();
    EXPECT_EQ(streamed->items, whole->items) << max_piece;
    EXPECT_EQ(streamed->resource_version, "77");
    EXPECT_EQ(streamed->continue_token, "next");
  }
}

// A whole collection in one response (a list of resourceVersion 0) is
// handed over in batches as it is decoded, never held decoded whole.
std::string PodListJson(int pods) {
  std::string body =
      R"({"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"91"},"items":[)";
  for (int i = 0; i < pods; ++i) {
    if (i > 0) body += ",\n";
    body += sim::MakeRealisticPodJson(i, i % 3 == 0 ? "" : "node-1");
  }
  return body + "]}";
}

std::vector<std::string> Names(const std::vector<LivePod>& pods) {
  std::vector<std::string> names;
  for (const LivePod& pod : pods) {
    names.push_back(pod.state.namespace_ + "/" + pod.state.name + " " +
                    pod.state.node_name + " " + pod.uid);
  }
  return names;
}

// Node-scale's pods (and every DOM-decoded list) read as they arrive: the
// items' texts and the decoded pods are those of the whole body, however
// it is cut, and they go out in batches.
TEST(StreamedListTest, PodListAsItArrivesIsTheWholeBodysInBatches) {
  const std::string body = PodListJson(1100);
  Result<ListPage<LivePod>> whole = DecodeLivePodList(body);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  ASSERT_EQ(whole->items.size(), 1100u);
  std::vector<std::string> whole_texts;
  JsonListScan whole_scan;
  ASSERT_TRUE(ScanJsonList(body, "pod list", &whole_scan,
                           [&](std::string_view text, size_t) {
                             whole_texts.emplace_back(text);
                           })
                  .ok());
  for (size_t max_piece : {1, 7, 4096, 1 << 20}) {
    std::vector<std::string> texts;
    JsonListScan scan;
    JsonChunkStream stream = CutInto(body, max_piece, 5);
    ASSERT_TRUE(ScanJsonListStream(&stream, "pod list", &scan,
                                   [&](std::string_view text, size_t i) {
                                     EXPECT_EQ(i, texts.size());
                                     texts.emplace_back(text);
                                   })
                    .ok());
    EXPECT_EQ(texts, whole_texts) << max_piece;
    EXPECT_EQ(scan.resource_version, "91");
  }
  std::vector<size_t> batch_sizes;
  std::vector<LivePod> handed;
  JsonChunkStream stream = CutInto(body, 4096, 9);
  Result<ListPage<LivePod>> streamed = LivePodCodec().decode_list_stream(
      &stream, [&](std::vector<LivePod> batch) {
        batch_sizes.push_back(batch.size());
        handed.insert(handed.end(), batch.begin(), batch.end());
      });
  ASSERT_TRUE(streamed.ok()) << streamed.status().message();
  EXPECT_EQ(batch_sizes, (std::vector<size_t>{kListBatch, kListBatch, 100}));
  EXPECT_EQ(Names(handed), Names(whole->items));
  EXPECT_TRUE(streamed->items.empty());
  EXPECT_EQ(streamed->resource_version, "91");
}

TEST(StreamedListTest, PodListCutShortIsAnErrorNotAShorterList) {
  const std::string body = PodListJson(5);
  const std::string cut = body.substr(0, body.size() - 40);
  JsonChunkStream stream = CutInto(cut, 100, 1);
  Result<ListPage<LivePod>> streamed =
      LivePodCodec().decode_list_stream(&stream, {});
  ASSERT_FALSE(streamed.ok());
  EXPECT_NE(streamed.status().message().find("pod list: invalid JSON"),
            std::string::npos)
      << streamed.status().message();
}

TEST(StreamedListTest, ItemsGoOutInBatchesAsTheyAreDecoded) {
  const std::string body = NodeListJson(1234);
  Result<ListPage<NodeInfo>> whole = DecodeNodeList(body);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  std::vector<size_t> batch_sizes;
  std::vector<NodeInfo> handed;
  JsonChunkStream stream = CutInto(body, 4096, 3);
  Result<ListPage<NodeInfo>> streamed = DecodeNodeListStream(
      &stream, {}, CountedCpu::kAllocatable, [&](std::vector<NodeInfo> batch) {
        batch_sizes.push_back(batch.size());
        handed.insert(handed.end(), batch.begin(), batch.end());
      });
  ASSERT_TRUE(streamed.ok()) << streamed.status().message();
  EXPECT_EQ(batch_sizes, (std::vector<size_t>{kNodeBatch, kNodeBatch, 234}));
  EXPECT_EQ(handed, whole->items);
  EXPECT_TRUE(streamed->items.empty());
  EXPECT_EQ(streamed->resource_version, "77");
}

TEST(StreamedListTest, TruncatedBodyIsAnErrorNamingTheOffset) {
  const std::string body = NodeListJson(3);
  const std::string cut = body.substr(0, body.size() / 2);
  JsonChunkStream stream = CutInto(cut, 64, 1);
  Result<ListPage<NodeInfo>> streamed = DecodeNodeListStream(&stream);
  ASSERT_FALSE(streamed.ok());
  EXPECT_NE(streamed.status().message().find("node list: invalid JSON at "
                                             "offset " +
                                             std::to_string(cut.size())),
            std::string::npos)
      << streamed.status().message();
}

TEST(StreamedListTest, PipeCarriesChunksInOrderAndHoldsTheWriterBack) {
  ChunkPipe pipe(2);
  std::atomic<int> pushed{0};
  std::thread writer([&] {
    pipe.Open();
    for (int i = 0; i < 100; ++i) {
      ASSERT_TRUE(pipe.Push(std::to_string(i)));
      ++pushed;
    }
    pipe.CloseWriter();
  });
  ASSERT_TRUE(pipe.WaitOpen());
  // Nothing read yet: the writer is held once two chunks wait.
  while (pushed < 2) std::this_thread::yield();
  std::string_view chunk;
  for (int i = 0; i < 100; ++i) {
    EXPECT_LE(pushed.load(), i + 3);
    ASSERT_TRUE(pipe.Next(&chunk));
    EXPECT_EQ(chunk, std::to_string(i));
  }
  EXPECT_FALSE(pipe.Next(&chunk));
  writer.join();
}

TEST(StreamedListTest, ReaderThatStopsReleasesTheWriter) {
  ChunkPipe pipe(1);
  std::atomic<bool> refused{false};
  std::thread writer([&] {
    pipe.Open();
    while (pipe.Push("x")) {
    }
    refused = true;
    pipe.CloseWriter();
  });
  ASSERT_TRUE(pipe.WaitOpen());
  std::string_view chunk;
  ASSERT_TRUE(pipe.Next(&chunk));
  pipe.CloseReader();
  writer.join();
  EXPECT_TRUE(refused);
}

TEST(StreamedListTest, WriterThatNeverOpensIsSeen) {
  ChunkPipe pipe;
  std::thread writer([&] { pipe.CloseWriter(); });
  EXPECT_FALSE(pipe.WaitOpen());
  writer.join();
}

}  // namespace
}  // namespace propscaler::kube
