let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const args = JSON.parse(input || '{}');
  process.stdout.write('waiting\n');
  // A progress line (stderr streams into the chat while the tool runs).
  process.stderr.write('still waiting\n');
  setTimeout(() => process.stdout.write('woke up'), Number(args.seconds ?? 60) * 1000);
});
