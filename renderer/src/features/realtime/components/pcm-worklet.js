// AudioWorklet: microphone samples (the context runs at 16 kHz) → PCM signed 16-bit little-endian in
// ~100 ms frames, plus the frame's level, posted to the page, which sends them over the WebSocket.
class PcmWriter extends AudioWorkletProcessor {
  constructor() {
    super();
    this.buffer = new Int16Array(1600);
    this.filled = 0;
    this.sumSquares = 0;
  }

  process(inputs) {
    const channel = inputs[0]?.[0];
    if (!channel) return true;
    for (let i = 0; i < channel.length; i++) {
      const sample = Math.max(-1, Math.min(1, channel[i]));
      this.sumSquares += sample * sample;
      this.buffer[this.filled++] = sample < 0 ? sample * 0x8000 : sample * 0x7fff;
      if (this.filled === this.buffer.length) {
        const level = Math.sqrt(this.sumSquares / this.filled);
        this.port.postMessage({ pcm: this.buffer.buffer, level }, [this.buffer.buffer]);
        this.buffer = new Int16Array(1600);
        this.filled = 0;
        this.sumSquares = 0;
      }
    }
    return true;
  }
}

registerProcessor('folio-pcm-writer', PcmWriter);
