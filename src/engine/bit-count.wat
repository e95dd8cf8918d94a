;; Counts of bits set in ANDed bit sets, for bit-arena.ts (compiled to bit-count-wasm.ts by
;; `npm run build:wasm`). The sets live in the imported memory; each function takes the byte
;; address of the first 32-bit word of every set and the number of words `n`, reads the words two
;; at a time as one 64-bit lane (i64.popcnt), and the last word alone when `n` is odd.
(module
  (import "arena" "memory" (memory 1 65536 shared))

  ;; bits set in a & p over n words
  (func (export "and1") (param $a i32) (param $p i32) (param $n i32) (result i32)
    (local $i i32) (local $end i32) (local $t i64)
    (local.set $end (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $t (i64.add (local.get $t) (i64.popcnt (i64.and
          (i64.load (i32.add (local.get $a) (local.get $i)))
          (i64.load (i32.add (local.get $p) (local.get $i)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $next)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then (local.set $t (i64.add (local.get $t) (i64.extend_i32_u (i32.popcnt (i32.and
        (i32.load (i32.add (local.get $a) (local.get $end)))
        (i32.load (i32.add (local.get $p) (local.get $end))))))))))
    (i32.wrap_i64 (local.get $t)))

  ;; bits set in a & b & p over n words
  (func (export "and2") (param $a i32) (param $b i32) (param $p i32) (param $n i32) (result i32)
    (local $i i32) (local $end i32) (local $t i64)
    (local.set $end (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $t (i64.add (local.get $t) (i64.popcnt (i64.and (i64.and
          (i64.load (i32.add (local.get $a) (local.get $i)))
          (i64.load (i32.add (local.get $b) (local.get $i))))
          (i64.load (i32.add (local.get $p) (local.get $i)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $next)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then (local.set $t (i64.add (local.get $t) (i64.extend_i32_u (i32.popcnt (i32.and (i32.and
        (i32.load (i32.add (local.get $a) (local.get $end)))
        (i32.load (i32.add (local.get $b) (local.get $end))))
        (i32.load (i32.add (local.get $p) (local.get $end))))))))))
    (i32.wrap_i64 (local.get $t)))

  ;; bits set in a & b & c & p over n words
  (func (export "and3") (param $a i32) (param $b i32) (param $c i32) (param $p i32) (param $n i32)
    (result i32)
    (local $i i32) (local $end i32) (local $t i64)
    (local.set $end (i32.shl (i32.and (local.get $n) (i32.const -2)) (i32.const 2)))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (local.get $end)))
        (local.set $t (i64.add (local.get $t) (i64.popcnt (i64.and (i64.and (i64.and
          (i64.load (i32.add (local.get $a) (local.get $i)))
          (i64.load (i32.add (local.get $b) (local.get $i))))
          (i64.load (i32.add (local.get $c) (local.get $i))))
          (i64.load (i32.add (local.get $p) (local.get $i)))))))
        (local.set $i (i32.add (local.get $i) (i32.const 8)))
        (br $next)))
    (if (i32.and (local.get $n) (i32.const 1))
      (then (local.set $t (i64.add (local.get $t) (i64.extend_i32_u (i32.popcnt (i32.and (i32.and (i32.and
        (i32.load (i32.add (local.get $a) (local.get $end)))
        (i32.load (i32.add (local.get $b) (local.get $end))))
        (i32.load (i32.add (local.get $c) (local.get $end))))
        (i32.load (i32.add (local.get $p) (local.get $end))))))))))
    (i32.wrap_i64 (local.get $t))))
