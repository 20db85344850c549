"""Run the providers' own stream accumulators on a stream and print the final message.

Usage: stream_accumulate.py < streams.json
       stdin: [[protocol, [event payload, ...]], ...]; stdout: one result per stream, in order

protocol: openai-chat    openai.lib.streaming.chat.ChatCompletionStreamState
          openai-responses openai.lib.streaming.responses ResponseStreamState
          anthropic      anthropic.lib.streaming._messages.accumulate_event

Prints {"text", "calls": [{"id", "name", "arguments"}], "stop_reason"} as JSON: the text
blocks joined, the calls with their arguments parsed, the stop reason as the wire spells it
(Responses: the response status).
"""

import json
import sys


def parse_args(text):
    if text is None or str(text).strip() == "":
        return {}
    try:
        return json.loads(text)
    except ValueError:
        return None


def openai_chat(events):
    from openai._models import construct_type
    from openai.lib.streaming.chat import ChatCompletionStreamState
    from openai.types.chat import ChatCompletionChunk

    state = ChatCompletionStreamState()
    for e in events:
        state.handle_chunk(construct_type(type_=ChatCompletionChunk, value=e))
    # The snapshot, not get_final_completion(): that one refuses `length` finishes.
    final = state.current_completion_snapshot
    choice = final.choices[0]
    msg = choice.message
    calls = [
        {"id": c.id, "name": c.function.name, "arguments": parse_args(c.function.arguments)}
        for c in (msg.tool_calls or [])
    ]
    return {"text": msg.content or "", "calls": calls, "stop_reason": choice.finish_reason}


def openai_responses(events):
    from openai import omit
    from openai._models import construct_type
    from openai.lib.streaming.responses._responses import ResponseStreamState
    from openai.types.responses import ResponseStreamEvent

    state = ResponseStreamState(input_tools=omit, text_format=omit)
    for e in events:
        state.handle_event(construct_type(type_=ResponseStreamEvent, value=e))
    final = state._completed_response
    snapshot = state._ResponseStreamState__current_snapshot
    # Servers may complete with an empty output; the SDK's snapshot holds the items then.
    output = final.output if final is not None and final.output else snapshot.output
    text = ""
    calls = []
    for item in output:
        if item.type == "message":
            for part in item.content:
                if part.type == "output_text":
                    text += part.text
        elif item.type == "function_call":
            calls.append(
                {"id": item.call_id, "name": item.name, "arguments": parse_args(item.arguments)}
            )
        elif item.type == "custom_tool_call":
            # A custom tool's free-text input is the canonical arguments {"input": <text>}.
            calls.append({"id": item.call_id, "name": item.name, "arguments": {"input": item.input}})
    status = final.status if final is not None else snapshot.status
    return {"text": text, "calls": calls, "stop_reason": status}


def anthropic(events):
    from anthropic.lib.streaming._messages import accumulate_event

    snapshot = None
    bufs = {}
    for e in events:
        snapshot = accumulate_event(event=e, current_snapshot=snapshot, json_bufs=bufs)
    text = ""
    calls = []
    for block in snapshot.content:
        if block.type == "text":
            text += block.text
        elif block.type == "tool_use":
            calls.append({"id": block.id, "name": block.name, "arguments": block.input})
    return {"text": text, "calls": calls, "stop_reason": snapshot.stop_reason}


def main():
    run = {"openai-chat": openai_chat, "openai-responses": openai_responses, "anthropic": anthropic}
    results = []
    for protocol, payloads in json.load(sys.stdin):
        events = [json.loads(p) for p in payloads if p.strip() != "[DONE]"]
        results.append(run[protocol](events))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
