# SPDX-License-Identifier: Apache-2.0
# Renders one frame of a vbm-fluid .vdb sequence with Blender's Cycles on the CPU, as a user
# would from Blender's own volume import (docs/export.md, "In Blender"):
#
#   blender -b --factory-startup -P scripts/blender-render.py -- FIRST.vdb OUT.png [options]
#
# FIRST.vdb is the sequence's first file (NAME_0000.vdb; Blender finds the rest by their
# consecutive numbers). The material is a Principled Volume reading `density`, with blackbody
# emission from `temperature` where a `fuel` grid says the scene burns. The camera frames the
# volume's box at the rendered frame. Denoising is off: Debian's Blender has no
# OpenImageDenoise. With --check, the run fails (exit 1) unless the volume shows: pixels
# differing from the background.
import argparse
import math
import os
import sys

import bpy
from mathutils import Vector


def arguments():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    p = argparse.ArgumentParser(prog="blender -b --factory-startup -P scripts/blender-render.py --")
    p.add_argument("first", help="the sequence's first .vdb file")
    p.add_argument("out", help="the PNG to write")
    p.add_argument("--frame", type=int, default=None, help="the sequence's frame to render, from 0 (default: the last)")
    p.add_argument("--size", default="480x360", help="WxH (default 480x360)")
    p.add_argument("--samples", type=int, default=32, help="Cycles samples per pixel (default 32)")
    p.add_argument("--density", type=float, default=4.0, help="the volume's density scale (default 4)")
    p.add_argument("--check", action="store_true", help="exit 1 unless some pixels differ from the background")
    return p.parse_args(argv)


def fail(message):
    print("blender-render.py: " + message, file=sys.stderr)
    sys.exit(1)


def import_sequence(first):
    bpy.ops.object.select_all(action="SELECT")
    bpy.ops.object.delete()
    folder, _, name = first.rpartition("/")
    folder = (folder or ".") + "/"
    stem = name[:-len(".vdb")].rstrip("0123456789")
    files = sorted(f for f in os.listdir(folder) if f.startswith(stem) and f.endswith(".vdb"))
    bpy.ops.object.volume_import(filepath=first, directory=folder, files=[{"name": f} for f in files],
                                 use_sequence_detection=True)
    volume = bpy.context.active_object
    if volume is None or volume.type != "VOLUME":
        fail(first + ": Blender imported no volume")
    volume.rotation_euler = (math.pi / 2, 0, 0)  # the simulation's up, +y, is Blender's +z
    return volume


def material(grids, density):
    m = bpy.data.materials.new("vbm-fluid smoke")
    m.use_nodes = True
    nodes = m.node_tree.nodes
    for node in [n for n in nodes if n.bl_idname != "ShaderNodeOutputMaterial"]:
        nodes.remove(node)
    output = next(n for n in nodes if n.bl_idname == "ShaderNodeOutputMaterial")
    shader = nodes.new("ShaderNodeVolumePrincipled")
    shader.inputs["Density"].default_value = density
    shader.inputs["Density Attribute"].default_value = "density"
    shader.inputs["Color"].default_value = (0.8, 0.8, 0.8, 1.0)
    if "fuel" in grids:  # a fire scene: the hot gas glows; Blender multiplies the attribute by this
        shader.inputs["Temperature Attribute"].default_value = "temperature"
        shader.inputs["Temperature"].default_value = 1200.0
        shader.inputs["Blackbody Intensity"].default_value = 0.6
    m.node_tree.links.new(shader.outputs["Volume"], output.inputs["Volume"])
    return m


def frame_camera(scene, box_min, box_max):
    centre = (box_min + box_max) / 2
    radius = max((box_max - box_min).length / 2, 1.0)
    bpy.ops.object.camera_add()
    camera = bpy.context.active_object
    camera.data.lens = 50
    fov = camera.data.angle
    distance = 1.15 * radius / math.sin(fov / 2)
    camera.location = centre + Vector((0.55, -0.8, 0.25)).normalized() * distance
    camera.rotation_euler = (centre - camera.location).to_track_quat("-Z", "Y").to_euler()
    camera.data.clip_end = 4 * distance
    scene.camera = camera
    bpy.ops.object.light_add(type="SUN", rotation=(math.radians(50), 0, math.radians(30)))
    bpy.context.active_object.data.energy = 4.0


def render(scene, args):
    width, height = (int(x) for x in args.size.lower().split("x"))
    scene.render.engine = "CYCLES"
    scene.cycles.device = "CPU"
    scene.cycles.samples = args.samples
    scene.cycles.use_denoising = False  # Debian's Blender is built without OpenImageDenoise
    scene.render.resolution_x, scene.render.resolution_y = width, height
    scene.render.resolution_percentage = 100
    scene.view_settings.view_transform = "Standard"
    scene.world = bpy.data.worlds.new("background")
    scene.world.use_nodes = True
    scene.world.node_tree.nodes["Background"].inputs["Color"].default_value = (0.02, 0.025, 0.035, 1.0)
    scene.render.image_settings.file_format = "PNG"
    scene.render.filepath = args.out
    bpy.ops.render.render(write_still=True)


def volume_pixels(path):
    """Pixels whose colour differs from the top-left corner's (the background) by over 2/255."""
    image = bpy.data.images.load(path)
    px = list(image.pixels)
    corner = px[(image.size[1] - 1) * image.size[0] * 4:][:3]
    count = 0
    for i in range(0, len(px), 4):
        if max(abs(px[i + c] - corner[c]) for c in range(3)) > 2 / 255:
            count += 1
    return count, image.size[0] * image.size[1]


def main():
    args = arguments()
    scene = bpy.context.scene
    volume = import_sequence(args.first)
    frames = volume.data.frame_duration if volume.data.is_sequence else 1
    frame = frames - 1 if args.frame is None else args.frame
    if not 0 <= frame < frames:
        fail("--frame %d: the sequence has frames 0 to %d" % (frame, frames - 1))
    scene.frame_set(volume.data.frame_start + frame)
    evaluated = volume.evaluated_get(bpy.context.evaluated_depsgraph_get())
    grids = [g.name for g in evaluated.data.grids]
    if "density" not in grids and "heat" not in grids:
        fail(args.first + ": no density grid (grids: " + ", ".join(grids) + ")")
    bpy.context.view_layer.update()
    corners = [volume.matrix_world @ Vector(c) for c in evaluated.bound_box]
    box_min = Vector(tuple(min(c[k] for c in corners) for k in range(3)))
    box_max = Vector(tuple(max(c[k] for c in corners) for k in range(3)))
    volume.data.materials.append(material(grids, args.density))
    frame_camera(scene, box_min, box_max)
    render(scene, args)
    shown, total = volume_pixels(args.out)
    print("blender-render.py: %s, frame %d of %d (grids %s): %d of %d pixels show the volume" %
          (args.out, frame, frames, ", ".join(grids), shown, total))
    if args.check and shown == 0:
        fail("the render is empty: no pixel differs from the background")


main()
