/** The Redis Cluster hash slot of a key (CRC16 of the key, or of its `{hash tag}`, modulo 16384). */
declare module 'cluster-key-slot' {
  function keySlot(key: string): number;
  export default keySlot;
}
