#!/usr/bin/env python3
"""The competitors of `make bench`, on the inputs the cargo benches left in target/bench/.

  bench-competitors.py litellm   LiteLLM's complete OpenAI Chat -> Anthropic conversion of
                                 target/bench/openai-request.json (parse, tools, tool_choice,
                                 messages, pretty JSON out), with the venv of
                                 benches/requirements.txt
  bench-competitors.py sdk       openai-python's ChatCompletionStreamState and anthropic's
                                 accumulate_event over the 10,000 events of
                                 target/bench/stream-{openai-chat,anthropic}.jsonl (each event's
                                 JSON text parsed, typed the way the SDK types it, accumulated),
                                 with the SDKs of tests/sdk/requirements.txt

Each prints one JSON line of figures (milliseconds, best and median of several runs) and writes
it to target/bench/<mode>.json. No assertion anywhere: `make bench` prints the table.
"""

import json
import os
import statistics
import sys
import time

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "bench")


def measure(f, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1e3)
    return {"best_ms": min(times), "median_ms": statistics.median(times)}


def litellm_bench():
    # Offline: LiteLLM's bundled model list, not a download at import.
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    from litellm.llms.anthropic.chat.transformation import AnthropicConfig

    with open(os.path.join(BENCH, "openai-request.json"), encoding="utf-8") as f:
        text = f.read()

    def convert():
        req = json.loads(text)
        model = req.pop("model", "claude-sonnet-4-5")
        messages = req.pop("messages")
        config = AnthropicConfig()
        optional = config.map_openai_params(
            non_default_params=dict(req), optional_params={}, model=model, drop_params=False
        )
        body = config.transform_request(
            model=model,
            messages=messages,
            optional_params=optional,
            litellm_params={},
            headers={},
        )
        return json.dumps(body, indent=2, ensure_ascii=False)

    out = json.loads(convert())
    assert len(out["tools"]) == 50, "LiteLLM converted the tools"
    assert len(out["messages"]) > 100, "LiteLLM converted the messages"
    figures = measure(convert, 7)
    figures["tools"] = len(out["tools"])
    figures["messages"] = len(out["messages"])
    return figures


def read_events(name):
    with open(os.path.join(BENCH, f"stream-{name}.jsonl"), encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def sdk_bench():
    from anthropic.lib.streaming._messages import accumulate_event
    from anthropic.types import RawMessageStreamEvent
    from anthropic._models import construct_type as a_construct
    from openai.lib.streaming.chat._completions import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk
    from openai._models import construct_type as o_construct

    chat = [e for e in read_events("openai-chat") if e != "[DONE]"]
    messages = read_events("anthropic")

    def openai_run():
        state = ChatCompletionStreamState()
        for data in chat:
            chunk = o_construct(type_=ChatCompletionChunk, value=json.loads(data))
            state.handle_chunk(chunk)
        return state.get_final_completion()

    def anthropic_run():
        snapshot = None
        bufs = {}
        for data in messages:
            event = a_construct(type_=RawMessageStreamEvent, value=json.loads(data))
            snapshot = accumulate_event(event=event, current_snapshot=snapshot, json_bufs=bufs)
        return snapshot

    done = openai_run()
    assert done.choices[0].message.content, "openai assembled the text"
    snap = anthropic_run()
    assert snap.content, "anthropic assembled the content"
    return {
        "openai-chat": dict(measure(openai_run, 5), events=len(chat) + 1),
        "anthropic": dict(measure(anthropic_run, 5), events=len(messages)),
    }


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode == "litellm":
        figures = litellm_bench()
    elif mode == "sdk":
        figures = sdk_bench()
    else:
        sys.exit(__doc__)
    line = json.dumps(figures)
    with open(os.path.join(BENCH, f"{mode}.json"), "w", encoding="utf-8") as f:
        f.write(line)
    print(line)


if __name__ == "__main__":
    main()
