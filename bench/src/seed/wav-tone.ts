/**
 * A mono 16-bit 48 kHz PCM WAV of `seconds` of a tone at `frequency` Hz: a voice memo that needs
 * converting on every channel. Different frequencies give different bytes (no conversion cache
 * hit between runs).
 */
export function wavTone(seconds: number, frequency: number): Buffer {
  const rate = 48_000;
  const samples = Math.round(seconds * rate);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVE', 8, 'ascii');
  wav.write('fmt ', 12, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(samples * 2, 40);
  for (let index = 0; index < samples; index += 1) {
    // A tone with a slow vibrato, like a voice holding a note.
    const t = index / rate;
    const value = Math.sin(2 * Math.PI * frequency * t + 3 * Math.sin(2 * Math.PI * 5 * t));
    wav.writeInt16LE(Math.round(value * 12_000), 44 + index * 2);
  }
  return wav;
}
