const [base, ...mods] = process.argv.slice(2);
const used = () => { global.gc(); global.gc(); return process.memoryUsage().heapUsed; };
for (const m of base.split(',')) await import(m);
const a = used();
for (const m of mods) await import(m);
console.log(mods.join(','), 'heap +', ((used() - a) / 1e6).toFixed(2), 'MB over', base);
